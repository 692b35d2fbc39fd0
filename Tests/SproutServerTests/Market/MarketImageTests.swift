import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutImaging
@testable import SproutServer

/// Thumbnails are real images of the right size and orientation; files are served byte for byte with caching
/// headers; only stored names can be asked for; files go with their product; either storage works, and with the
/// database storage a second server on the same database serves every image.
@Suite struct MarketImageTests {
    static let storages: [MarketImageStorageKind] = [.files, .database]

    @Test(arguments: storages)
    func thumbnailsAreDownscaledUprightAndInTheOriginalsFormat(storage: MarketImageStorageKind) async throws {
        try await withTestApp(configure: { $0.market.imageStorage = storage }) { client, _ in
            let vendor = try await client.makeVendor("photographer")
            let originals = [
                try TestImages.jpeg(width: 1200, height: 800),
                try TestImages.png(width: 640, height: 480),
                try TestImages.jpeg(width: 200, height: 100),
                // Stored landscape, to be shown rotated 90° clockwise (EXIF orientation 6).
                try TestImages.jpeg(width: 400, height: 200, orientation: 6),
            ]
            let product = try await client.registerProduct(as: vendor, images: originals)
            let images = try #require(product["images"]?.array)
            #expect(images.count == 4)
            var thumbnails: [[UInt8]] = []
            for (index, image) in images.enumerated() {
                let original = try await client.fetchImage(try #require(image["url"]?.string))
                #expect(original.status == .ok && original.body == originals[index], "image \(index) is served byte for byte")
                let thumbnail = try await client.fetchImage(try #require(image["thumbnail_url"]?.string))
                #expect(thumbnail.status == .ok)
                #expect(thumbnail.headers[.contentType] == (index == 1 ? "image/png" : "image/jpeg"))
                thumbnails.append(thumbnail.body)
            }
            #expect(try TestImages.dimensions(thumbnails[0]) == (300, 200))
            #expect(try TestImages.dimensions(thumbnails[1]) == (300, 225))
            #expect(try TestImages.dimensions(thumbnails[2]) == (200, 100), "never upscaled")
            let upright = try TestImages.decode(thumbnails[3])
            #expect((upright.width, upright.height) == (150, 300))
            // The red corner was top-left as stored; turned clockwise it is top-right.
            #expect(TestImages.isRed(upright, x: upright.width - 5, y: 5))
            #expect(!TestImages.isRed(upright, x: 5, y: 5))
        }
    }

    /// A PNG already within the thumbnail's size, holding nothing but pixels, is its own thumbnail: served byte for
    /// byte under both names, and in files stored once (a second link). Encoding and writing it again took 80 %
    /// of a 3-picture upload's CPU, then half of what was left.
    @Test(arguments: storages)
    func aSmallPlainPNGIsItsOwnThumbnailAndStoredOnce(storage: MarketImageStorageKind) async throws {
        let dataDirectory = MarketUploadStagingTests.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        try await withTestApp(configure: { $0.market.imageStorage = storage; $0.data.directory = dataDirectory }) { client, _ in
            let vendor = try await client.makeVendor("small-png")
            let png = try TestImages.png(width: 240, height: 180)
            let product = try await client.registerProduct(as: vendor, images: [png])
            let image = try #require(product["images"]?[0])
            let url = try #require(image["url"]?.string)
            let original = try await client.fetchImage(url)
            let thumbnail = try await client.fetchImage(try #require(image["thumbnail_url"]?.string))
            #expect(original.status == .ok && thumbnail.status == .ok)
            let same = original.body == png && thumbnail.body == png
            #expect(same, "original \(original.body.count) and thumbnail \(thumbnail.body.count) bytes for \(png.count)")
            #expect(thumbnail.headers[.contentType] == "image/png")
            guard storage == .files else { return }
            let key = try #require(URL(string: url)?.lastPathComponent.prefix(32))
            let folder = dataDirectory + "/market-images/" + key.prefix(2) + "/"
            let links = try FileManager.default.attributesOfItem(atPath: folder + key + "_thumb.png")[.referenceCount] as? Int
            #expect(links == 2, "the thumbnail is a second link to the original")
        }
    }

    /// The v3 app labels every photo `image001.jpeg`, `image/jpeg`, whatever it holds: the bytes decide what is
    /// stored and served.
    @Test(arguments: storages)
    func aPNGLabelledJPEGIsAcceptedAndServedAsThePNGItIs(storage: MarketImageStorageKind) async throws {
        try await withTestApp(configure: { $0.market.imageStorage = storage }) { client, _ in
            let vendor = try await client.makeVendor("labeller")
            let png = try TestImages.png(width: 500, height: 400)
            let jpeg = try TestImages.jpeg(width: 320, height: 240)
            let params = #"{"name": "라벨 틀린 사진", "description": "v3", "price": 1000, "currency": "KRW", "secret": "\#(vendor.secret)"}"#
            let response = try await client.register(parts: [
                .params(params, contentType: "application/json"),
                .image(png, filename: "image001.jpeg", contentType: "image/jpeg"),
                .image(jpeg, filename: "image002.png", contentType: "image/png"),
                .image(png, filename: "image003", contentType: "application/octet-stream"),
            ], identifier: vendor.identifier)
            #expect(response.status == .created, "\(response.text)")
            let images = try #require(response.json?["images"]?.array)
            let expected: [(bytes: [UInt8], type: String, fileExtension: String)] = [(png, "image/png", ".png"), (jpeg, "image/jpeg", ".jpg"), (png, "image/png", ".png")]
            for (image, expectation) in zip(images, expected) {
                let url = try #require(image["url"]?.string)
                let thumbnailURL = try #require(image["thumbnail_url"]?.string)
                #expect(url.hasSuffix(expectation.fileExtension) && thumbnailURL.hasSuffix(expectation.fileExtension), "\(url)")
                let original = try await client.fetchImage(url)
                #expect(original.body == expectation.bytes && original.headers[.contentType] == expectation.type)
                let thumbnail = try await client.fetchImage(thumbnailURL)
                #expect(thumbnail.headers[.contentType] == expectation.type && ImageProcessor.format(of: thumbnail.body)?.mediaType == expectation.type)
            }
        }
    }

    @Test func aRefusedPictureIsNamedByPositionAndFileName() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("namer")
            let jpeg = try TestImages.jpeg(width: 100, height: 100)
            let params = #"{"name": "이름 붙은 거절", "price": 1000, "currency": "KRW", "secret": "\#(vendor.secret)"}"#
            let heic = try await client.register(parts: [
                .params(params), .image(jpeg, filename: "one.jpg"), .image(jpeg, filename: "two.jpg"),
                .image(Array("\0\0\0\u{18}ftypheic".utf8), filename: "photo.heic", contentType: "image/heic"),
            ], identifier: vendor.identifier)
            #expect(heic.status == .badRequest && heic.json?["message"]?.string == "image 3 (photo.heic) is neither a JPEG nor a PNG.", "\(heic.text)")
            let truncated = try await client.register(parts: [.params(params), .image(Array(jpeg.prefix(200)), filename: "half.jpg")], identifier: vendor.identifier)
            #expect(truncated.json?["message"]?.string == "image 1 (half.jpg) could not be decoded in full (truncated or corrupt).", "\(truncated.text)")
        }
    }

    @Test(arguments: storages)
    func imagesCarryTypeETagAndLongCachingAndAnswer304(storage: MarketImageStorageKind) async throws {
        try await withTestApp(configure: { $0.market.imageStorage = storage }) { client, _ in
            let vendor = try await client.makeVendor("cacher")
            let product = try await client.registerProduct(as: vendor)
            let url = try #require(product["images"]?[0]?["url"]?.string)
            let first = try await client.fetchImage(url)
            #expect(first.headers[.contentType] == "image/jpeg")
            #expect(first.headers[.cacheControl]?.hasPrefix("public, max-age=") == true)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.fetchImage(url, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.isEmpty && again.headers[.eTag] == etag)
            let changed = try await client.fetchImage(url, headers: [.ifNoneMatch: "\"something-else\""])
            #expect(changed.status == .ok)
            #expect(try await client.fetchImage(url, headers: [.ifNoneMatch: "*"]).status == .notModified)
            // A missing image is a 404 whatever the precondition (it answered 304 to `*`).
            let missing = "/market/images/0123456789abcdef0123456789abcdef.jpg"
            #expect(try await client.raw(.get, missing, headers: [.ifNoneMatch: "*"]).status == .notFound)
            #expect(try await client.raw(.get, missing, headers: [.ifNoneMatch: "\"0123456789abcdef0123456789abcdef.jpg\""]).status == .notFound)
        }
    }

    @Test func onlyStoredFileNamesCanBeAskedFor() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("prober")
            let product = try await client.registerProduct(as: vendor)
            let url = try #require(product["images"]?[0]?["url"]?.string)
            let name = try #require(url.split(separator: "/").last)
            for path in [
                "/market/images/..%2F..%2Fsprout.sqlite", "/market/images/..%2Fmarket-images%2F\(name.prefix(2))%2F\(name)",
                "/market/images/\(name.uppercased())", "/market/images/\(name).jpg", "/market/images/\(name.dropLast(4)).gif",
                "/market/images/%00\(name)", "/market/images/0123456789abcdef0123456789abcdef.jpg",
            ] {
                let response = try await client.raw(.get, path)
                #expect(response.status == .notFound, "\(path)")
            }
        }
    }

    @Test(arguments: storages)
    func deletingAProductDeletesItsFiles(storage: MarketImageStorageKind) async throws {
        try await withTestApp(configure: { $0.market.imageStorage = storage }) { client, database in
            let vendor = try await client.makeVendor("cleaner")
            let product = try await client.registerProduct(as: vendor, images: [try TestImages.jpeg(width: 90, height: 90), try TestImages.png(width: 30, height: 30)])
            let id = try #require(product["id"]?.int)
            let urls = (product["images"]?.array ?? []).flatMap { [$0["url"]?.string, $0["thumbnail_url"]?.string].compactMap { $0 } }
            #expect(urls.count == 4)
            var headers = vendor.identifierHeader
            headers[.contentType] = "application/json"
            let secret = try await client.raw(.post, "/api/products/\(id)/secret", headers: headers, body: Array(#"{"secret": "\#(vendor.secret)"}"#.utf8)).text
            #expect(try await client.send(.delete, "/api/products/\(id)/\(secret)", headers: vendor.identifierHeader).status == .ok)
            for url in urls {
                #expect(try await client.fetchImage(url).status == .notFound, "\(url)")
            }
            #expect(try await database.marketCount("market_image_blobs") == 0)
        }
    }

    @Test func twoServersOnOneDatabaseServeEachOthersImages() async throws {
        try await withTestApp(configure: { $0.market.imageStorage = .database }) { client, database in
            let vendor = try await client.makeVendor("shared")
            let product = try await client.registerProduct(as: vendor)
            let url = try #require(product["images"]?[0]?["thumbnail_url"]?.string)
            let path = try #require(URLComponents(string: url)?.path)
            let second = try database.secondProcess { $0.market.imageStorage = .database; $0.data.directory = NSTemporaryDirectory() + "sprout-other-\(UUID().uuidString)" }
            try await second.test(.router) { other in
                let served = try await other.raw(.get, path)
                #expect(served.status == .ok && served.headers[.contentType] == "image/jpeg")
                let size = try TestImages.dimensions(served.body)
                #expect(size.width == 300 && size.height == 225)
                let detail = try await other.send(.get, "/api/products/\(product["id"]?.int ?? 0)")
                #expect(detail.json?["thumbnail"]?.string == url)
            }
        }
    }
}
