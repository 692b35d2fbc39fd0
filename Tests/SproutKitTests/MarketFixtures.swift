import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// The market's captured answers and test images (`Fixtures/Market`, copied from `shared/fixtures/market`), and
/// wire values made to order.
enum MarketFixture {
    static func data(_ name: String) throws -> Data {
        try FixtureFile.data("Market/\(name)")
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try data(name), as: UTF8.self)
    }

    /// Two small baseline JPEGs (16×16 and 24×16) written with libjpeg, for uploads a server must decode.
    static func jpegs() throws -> [MarketUpload] {
        [
            MarketUpload(data: try data("red-16x16.jpg"), format: .jpeg, filename: "red.jpg"),
            MarketUpload(data: try data("blue-24x16.jpg"), format: .jpeg, filename: "blue.jpg"),
        ]
    }

    static let created = "2024-03-01T09:30:15.25"

    static func summary(id: Int, vendorID: Int = 7, name: String? = nil, description: String = "설명") -> MarketProductSummaryJSON {
        MarketProductSummaryJSON(
            id: id, vendorID: vendorID, vendorName: "vendor\(vendorID)", name: name ?? "상품 \(id)", description: description,
            thumbnail: "http://127.0.0.1:9/market/images/\(id)_thumb.jpg", currency: "KRW", price: 1200, bargainPrice: 1000,
            discountedPrice: 200, stock: id % 3, createdAt: created, issuedAt: created
        )
    }

    static func product(id: Int, vendorID: Int = 7, name: String = "맥북 프로", description: String = "애플 맥북", price: Double = 2.36,
                        discount: Double = 0.71, stock: Int = 3, currency: String = "USD") -> MarketProductJSON {
        MarketProductJSON(
            id: id, vendorID: vendorID, name: name, description: description,
            thumbnail: "http://127.0.0.1:9/market/images/\(id)b_thumb.jpg", currency: currency, price: price,
            bargainPrice: price - discount, discountedPrice: discount, stock: stock, createdAt: created, issuedAt: created,
            images: [
                MarketImageJSON(id: id * 10, url: "http://127.0.0.1:9/market/images/\(id)a.jpg",
                                thumbnailURL: "http://127.0.0.1:9/market/images/\(id)a_thumb.jpg", succeed: true, issuedAt: created),
                MarketImageJSON(id: id * 10 + 1, url: "http://127.0.0.1:9/market/images/\(id)b.jpg",
                                thumbnailURL: "http://127.0.0.1:9/market/images/\(id)b_thumb.jpg", succeed: true, issuedAt: created),
            ],
            vendors: MarketVendorSummaryJSON(id: vendorID, name: "vendor\(vendorID)", createdAt: created, issuedAt: created)
        )
    }

    static func json<Value: Encodable>(_ value: Value) throws -> Data {
        try JSONEncoder().encode(value)
    }
}

/// Records every request and answers each with what `respond` says: for checking exactly what a client sends.
final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    typealias Answer = (status: Int, body: Data)
    private let lock = NSLock()
    private var sent: [URLRequest] = []
    private let respond: @Sendable (URLRequest) throws -> Answer

    init(_ respond: @escaping @Sendable (URLRequest) throws -> Answer) {
        self.respond = respond
    }

    /// Answers every request with `status` and `body`.
    convenience init(status: Int = 200, body: Data) {
        self.init { _ in (status, body) }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { sent.append(request) }
        let answer = try respond(request)
        return (answer.body, HTTPURLResponse(url: request.url!, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: nil)!)
    }

    var requests: [URLRequest] { lock.withLock { sent } }
}

extension URLRequest {
    /// `METHOD path?query`, for comparing what was sent.
    var line: String {
        let query = url?.query.map { "?\($0)" } ?? ""
        return "\(httpMethod ?? "?") \(url?.path ?? "?")\(query)"
    }

    /// The body as a JSON object.
    var jsonBody: [String: Any]? {
        httpBody.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }
}
