import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SproutImaging
@testable import SproutServer

/// A vendor made through the API in a test: the account behind it and the credentials it was issued.
struct TestVendor: Sendable {
    let account: TestAccount
    let id: Int
    let name: String
    let identifier: String
    let secret: String

    var identifierHeader: HTTPFields { [HTTPField.Name("identifier")!: identifier] }
}

/// One part of a multipart body.
struct TestPart: Sendable {
    var name: String
    var filename: String?
    var contentType: String?
    var bytes: [UInt8]

    static func params(_ json: String, contentType: String? = nil) -> TestPart {
        TestPart(name: "params", filename: nil, contentType: contentType, bytes: Array(json.utf8))
    }

    static func image(_ bytes: [UInt8], filename: String = "photo.jpg", contentType: String? = "image/jpeg") -> TestPart {
        TestPart(name: "images", filename: filename, contentType: contentType, bytes: bytes)
    }
}

/// An answer with its raw body, for text/plain and image responses.
struct RawResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: [UInt8]

    var json: JSON? { try? JSON(parsing: Data(body)) }
    var text: String { String(decoding: body, as: UTF8.self) }
}

enum TestImages {
    /// A `width` × `height` JPEG: blue with a red top-left quarter; `orientation` adds an EXIF APP1 segment.
    static func jpeg(width: Int = 1200, height: Int = 800, orientation: UInt16? = nil, quality: Int = 80) throws -> [UInt8] {
        let encoded = try JPEGCodec.encode(cornerBitmap(width: width, height: height, channels: 3), quality: quality)
        guard let orientation else { return encoded }
        return Array(encoded[0..<2]) + exifSegment(orientation: orientation) + Array(encoded[2...])
    }

    /// `jpeg` grown to `size` bytes by comment segments after its start marker: still a valid JPEG, as large as
    /// a photo that fills the Market's per-picture limit.
    static func padded(_ jpeg: [UInt8], to size: Int) -> [UInt8] {
        var comments: [UInt8] = []
        while jpeg.count + comments.count + 4 < size {
            let length = min(65_535, size - jpeg.count - comments.count - 2)
            comments += [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + [UInt8](repeating: UInt8(ascii: "x"), count: length - 2)
        }
        return Array(jpeg[0..<2]) + comments + Array(jpeg[2...])
    }

    static func png(width: Int = 640, height: Int = 480) throws -> [UInt8] {
        try PNGCodec.encode(cornerBitmap(width: width, height: height, channels: 4))
    }

    /// A valid PNG signature and IHDR that declares `width` × `height`, with a tiny (invalid) body: what a
    /// decompression bomb's header looks like.
    static func pngDeclaring(width: UInt32, height: UInt32) -> [UInt8] {
        func u32(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let ihdr = Array("IHDR".utf8) + u32(width) + u32(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + u32(13) + ihdr + u32(crc32(ihdr))
            + u32(0) + Array("IEND".utf8) + u32(crc32(Array("IEND".utf8)))
    }

    static func dimensions(_ bytes: [UInt8]) throws -> (width: Int, height: Int) {
        let decoded = try decode(bytes)
        return (decoded.width, decoded.height)
    }

    static func decode(_ bytes: [UInt8]) throws -> Bitmap {
        try bytes.withUnsafeBytes { raw in
            switch ImageProcessor.format(of: raw) {
            case .jpeg: try JPEGCodec.decode(raw, header: JPEGCodec.readHeader(raw), scaleDenominator: 1)
            case .png: try PNGCodec.decode(raw) { _, _ in }
            case nil: throw ImageRejection.notAnImage
            }
        }
    }

    /// Is the pixel at (x, y) red (the painted corner) rather than blue?
    static func isRed(_ bitmap: Bitmap, x: Int, y: Int) -> Bool {
        let start = (y * bitmap.width + x) * bitmap.channels
        return bitmap.pixels[start] > 150 && bitmap.pixels[start + 2] < 100
    }

    private static func cornerBitmap(width: Int, height: Int, channels: Int) -> Bitmap {
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                pixels += x < width / 4 && y < height / 4 ? [230, 20, 20] : [20, 40, 220]
                if channels == 4 { pixels.append(255) }
            }
        }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }

    private static func exifSegment(orientation: UInt16) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1]
            + [UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension TestClientProtocol {
    func raw(_ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:], body: [UInt8]? = nil) async throws -> RawResponse {
        try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) }) { response in
            RawResponse(status: response.status, headers: response.headers, body: Array(response.body.readableBytesView))
        }
    }

    /// Signs up `username` and makes the account a vendor named `name` through the API.
    func makeVendor(_ username: String, name: String? = nil) async throws -> TestVendor {
        let account = try await signUp(username)
        var headers = account.bearer
        headers[.contentType] = "application/json"
        let response = try await send(.post, "/api/vendors", headers: headers, body: #"{"name": "\#(name ?? username + "-shop")"}"#)
        guard response.status == .created, let json = response.json, let id = json["id"]?.int,
              let identifier = json["identifier"]?.string, let secret = json["secret"]?.string, let vendorName = json["name"]?.string
        else { throw TestFailure("vendor failed: \(response.status) \(String(describing: response.json))") }
        SuiteLog.noteSecret(secret)
        return TestVendor(account: account, id: id, name: vendorName, identifier: identifier, secret: secret)
    }

    /// `POST /api/products` with these parts, as `vendor` (or with `identifier` as given).
    func register(parts: [TestPart], identifier: String?, boundary: String = "Boundary-7MA4YWxkTrZu0gW") async throws -> RawResponse {
        var body: [UInt8] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { head += "; filename=\"\(filename)\"" }
            head += "\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            body += Array((head + "\r\n").utf8) + part.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        var headers: HTTPFields = [.contentType: "multipart/form-data; boundary=\(boundary)"]
        if let identifier { headers[HTTPField.Name("identifier")!] = identifier }
        return try await raw(.post, "/api/products", headers: headers, body: body)
    }

    /// Registers a product the way the v2 seed app does (every value a string, `descriptions`, a `params` part
    /// without Content-Type) and returns its JSON.
    @discardableResult
    func registerProduct(
        as vendor: TestVendor, name: String = "아이폰 13 미니", description: String = "거의 새 것", price: String = "1500000",
        discount: String = "0", stock: String = "3", currency: String = "KRW", images: [[UInt8]]? = nil
    ) async throws -> JSON {
        let params = """
            {"name": "\(name)", "descriptions": "\(description)", "price": "\(price)", "discounted_price": "\(discount)", \
            "stock": "\(stock)", "currency": "\(currency)", "secret": "\(vendor.secret)"}
            """
        let pictures = try images ?? [TestImages.jpeg(width: 400, height: 300)]
        let parts = pictures.enumerated().map { index, bytes in
            bytes.starts(with: [0x89, 0x50]) ? TestPart.image(bytes, filename: "photo\(index).png", contentType: "image/png") : .image(bytes, filename: "photo\(index).jpg")
        }
        let response = try await register(parts: [.params(params)] + parts, identifier: vendor.identifier)
        guard response.status == .created, let json = response.json else {
            throw TestFailure("register failed: \(response.status) \(response.text)")
        }
        return json
    }

    /// `PATCH /api/products/{id}` with a JSON body as `vendor`.
    func modify(_ id: Int, _ json: String, as vendor: TestVendor) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?) {
        var headers = vendor.identifierHeader
        headers[.contentType] = "application/json"
        return try await send(.patch, "/api/products/\(id)", headers: headers, body: json)
    }

    /// The path part of an absolute image URL the API wrote.
    func fetchImage(_ url: String, headers: HTTPFields = [:]) async throws -> RawResponse {
        guard let path = URLComponents(string: url)?.path else { throw TestFailure("not a URL: \(url)") }
        return try await raw(.get, path, headers: headers)
    }
}

extension SproutDatabase {
    func marketCount(_ table: String) async throws -> Int {
        try await executor.readFirst(SQLStatement("SELECT count(*) FROM \(raw: table)"), as: SQLInt.self)?.value ?? 0
    }
}
