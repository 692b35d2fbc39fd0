import Foundation
import HTTPTypes
import Testing
@testable import SproutServer

/// Uploads that must be refused: each is a 400 in the market's `{code, message}` shape, and nothing is written —
/// no product row, no image row, no file, on either storage.
@Suite struct MarketUploadAbuseTests {
    static let storages: [MarketImageStorageKind] = [.files, .database]

    @Test(arguments: storages)
    func abusiveUploadsAre400AndLeaveNothingBehind(storage: MarketImageStorageKind) async throws {
        let jpeg = try TestImages.jpeg(width: 300, height: 200)
        let png = try TestImages.png(width: 80, height: 60)
        let tenMegabytes = jpeg + [UInt8](repeating: 0x41, count: 10 * 1024 * 1024)
        let cases: [(String, @Sendable (TestVendor) throws -> [TestPart])] = [
            ("six images", { vendor in [.params(Self.params(vendor))] + Array(repeating: .image(jpeg), count: 6) }),
            ("a 10 MB image", { vendor in [.params(Self.params(vendor)), .image(tenMegabytes)] }),
            ("a good PNG after a HEIC", { vendor in [.params(Self.params(vendor)), .image(png, filename: "a.png"), .image(Array("....ftypheic".utf8), filename: "photo.heic", contentType: "image/heic")] }),
            ("a text file named .png", { vendor in [.params(Self.params(vendor)), .image(Array("hello, world".utf8), filename: "notes.png", contentType: "image/png")] }),
            ("a truncated JPEG", { vendor in [.params(Self.params(vendor)), .image(Array(jpeg.prefix(jpeg.count / 2)))] }),
            ("a decompression bomb", { vendor in [.params(Self.params(vendor)), .image(TestImages.pngDeclaring(width: 50_000, height: 50_000), filename: "bomb.png", contentType: "image/png")] }),
            ("a path in the file name", { vendor in [.params(Self.params(vendor)), .image(jpeg, filename: "../../etc/passwd.jpg")] }),
            ("a missing params part", { _ in [.image(jpeg)] }),
            ("no image at all", { vendor in [.params(Self.params(vendor))] }),
            ("params that are not JSON", { _ in [.params("name=phone"), .image(jpeg)] }),
            ("a good image after a bad one", { vendor in [.params(Self.params(vendor)), .image(jpeg), .image(Array(jpeg.prefix(100)))] }),
        ]
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-abuse-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        try await withTestApp(configure: { $0.market.imageStorage = storage; $0.data.directory = dataDirectory }) { client, database in
            let vendor = try await client.makeVendor("abuser")
            for (name, parts) in cases {
                let response = try await client.register(parts: try parts(vendor), identifier: vendor.identifier)
                #expect(response.status == .badRequest, "\(name): \(response.status) \(response.text)")
                #expect(response.json?["code"]?.int == 400 && response.json?["message"]?.string?.isEmpty == false, "\(name): \(response.text)")
            }
            let malformed = try await client.raw(
                .post, "/api/products",
                headers: [.contentType: "multipart/form-data; boundary=xyz", HTTPField.Name("identifier")!: vendor.identifier],
                body: Array("--xyz\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n{}".utf8)
            )
            #expect(malformed.status == .badRequest)
            let notMultipart = try await client.raw(.post, "/api/products", headers: [.contentType: "application/json", HTTPField.Name("identifier")!: vendor.identifier], body: Array("{}".utf8))
            #expect(notMultipart.status == .badRequest)
            #expect(try await database.marketCount("market_products") == 0)
            #expect(try await database.marketCount("market_images") == 0)
            #expect(try await database.marketCount("market_image_blobs") == 0)
            let files = FileManager.default.enumerator(atPath: dataDirectory + "/market-images")?.allObjects.compactMap { $0 as? String }.filter { $0.contains(".") } ?? []
            #expect(files.isEmpty, "files left: \(files)")
            // The refusals cost the server nothing lasting: a good upload still works.
            let good = try await client.register(parts: [.params(Self.params(vendor)), .image(jpeg)], identifier: vendor.identifier)
            #expect(good.status == .created)
        }
    }

    /// Security review: images placed before `params` were decoded (a bomb costs seconds) before the vendor
    /// secret was checked. They are now only held until `params` has authorised the request.
    @Test func imagesBeforeParamsAreNotDecodedUntilTheSecretIsChecked() async throws {
        try await withTestApp { client, database in
            let vendor = try await client.makeVendor("early")
            // Not an image at all: decoding it first would answer 400; the wrong secret is found first now.
            let garbage = TestPart.image(Array("definitely not a picture".utf8), filename: "bomb.jpg")
            let wrongSecret = #"{"name": "테스트 상품", "price": "1000", "currency": "KRW", "secret": "wrong-secret"}"#
            let refused = try await client.register(parts: [garbage, garbage, .params(wrongSecret)], identifier: vendor.identifier)
            #expect(refused.status == .forbidden, "\(refused.status) \(refused.text)")
            let noParams = try await client.register(parts: [garbage], identifier: vendor.identifier)
            #expect(noParams.status == .badRequest && noParams.json?["message"]?.string == "The params part is missing.", "\(noParams.text)")
            // Held images are numbered as they came, and a good request in that order still works.
            let png = try TestImages.png(width: 40, height: 30)
            let late = try await client.register(parts: [.image(png, filename: "first.png"), garbage, .params(Self.params(vendor))], identifier: vendor.identifier)
            #expect(late.json?["message"]?.string == "image 2 (bomb.jpg) is neither a JPEG nor a PNG.", "\(late.text)")
            let good = try await client.register(parts: [.image(png, filename: "first.png"), .params(Self.params(vendor)), .image(png)], identifier: vendor.identifier)
            #expect(good.status == .created && good.json?["images"]?.array?.count == 2, "\(good.text)")
            #expect(try await database.marketCount("market_products") == 1)
        }
    }

    static func params(_ vendor: TestVendor) -> String {
        #"{"name": "테스트 상품", "price": "1000", "currency": "KRW", "secret": "\#(vendor.secret)"}"#
    }
}
