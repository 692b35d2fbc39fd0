import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// An in-memory market behind the kit's transport seam: the list with paging and search, details, PATCH and
/// both delete flows with the identifier and secret checks Sprout makes, every request recorded, failures
/// injectable and answers holdable — for store behaviour a live server cannot show on cue. The live tests check
/// the same flows against the real server.
final class MarketFakeServer: HTTPTransport, @unchecked Sendable {
    struct Vendor { var id: Int; var identifier: String; var secret: String }

    // Every property below is guarded by `lock`.
    private let lock = NSLock()
    private var products: [MarketProductJSON] = []
    private var productSecrets: [Int: String] = [:]
    private var vendors: [Vendor] = []
    private var sent: [URLRequest] = []
    private var failures: [(method: String, pathPrefix: String, status: Int)] = []
    private let gate = AnswerGate()

    static let base = URL(string: "http://127.0.0.1:9")!

    // MARK: Seeding and inspection

    /// Adds a vendor and returns its credentials.
    func addVendor(id: Int) -> MarketVendorCredentials {
        let vendor = Vendor(id: id, identifier: "00000000-0000-11ee-8000-\(String(format: "%012d", id))", secret: "secret\(id)")
        lock.withLock { vendors.append(vendor) }
        return MarketVendorCredentials(vendorID: id, identifier: vendor.identifier, secret: vendor.secret)
    }

    /// Adds `count` products by `vendorID` ("상품 1" oldest) and returns their ids, oldest first.
    @discardableResult
    func addProducts(_ count: Int, by vendorID: Int = 7, name: (Int) -> String = { "상품 \($0)" }) -> [Int] {
        lock.withLock {
            (1...count).map { number in
                let id = (products.map(\.id).max() ?? 0) + 1
                var product = MarketFixture.product(id: id, vendorID: vendorID, name: name(number), description: "설명 \(number)")
                product.thumbnail = "http://127.0.0.1:9/market/images/\(id)_thumb.jpg"
                products.append(product)
                productSecrets[id] = "product-secret-\(id)"
                return id
            }
        }
    }

    /// The next request with `method` whose path starts with `pathPrefix` is answered `status` instead.
    func failNext(_ method: String, _ pathPrefix: String, status: Int) {
        lock.withLock { failures.append((method, pathPrefix, status)) }
    }

    var requests: [URLRequest] { lock.withLock { sent } }
    var productIDs: [Int] { lock.withLock { products.map(\.id) } }
    func product(_ id: Int) -> MarketProductJSON? { lock.withLock { products.first { $0.id == id } } }

    /// Answers are computed (the server acts) but not returned until `release()`.
    func hold() { gate.hold() }

    func release() { gate.release() }

    /// Waits (briefly) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws {
        try await eventually { self.lock.withLock { self.sent.count >= count } }
    }

    // MARK: The transport

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (status, body) = lock.withLock { () -> (Int, Data) in
            sent.append(request)
            return answer(request)
        }
        await gate.passThrough()
        return (body, HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!)
    }

    // MARK: Routes (called with the lock held)

    private func answer(_ request: URLRequest) -> (Int, Data) {
        let method = request.httpMethod ?? "GET"
        let path = request.url?.path ?? ""
        if let index = failures.firstIndex(where: { $0.method == method && path.hasPrefix($0.pathPrefix) }) {
            let failure = failures.remove(at: index)
            return error(failure.status, "injected failure")
        }
        let parts = path.split(separator: "/").map(String.init)
        switch (method, parts.count) {
        case ("GET", 2) where path == "/api/products":
            return list(request)
        case ("GET", 3):
            guard let id = Int(parts[2]), let product = products.first(where: { $0.id == id }) else { return error(404, "no product") }
            return (200, encode(product))
        case ("PATCH", 3):
            return modify(request, id: Int(parts[2]) ?? 0)
        case ("POST", 4) where parts[3] == "secret" || parts[3] == "archived":
            return lookUp(request, id: Int(parts[2]) ?? 0, archived: parts[3] == "archived")
        case ("DELETE", 4):
            return delete(request, id: Int(parts[2]) ?? 0, productSecret: parts[3])
        case ("DELETE", 3):
            guard let token = MarketDeleteToken(text: parts[2]) else { return error(400, "bad token") }
            return delete(request, id: token.productID, productSecret: token.productSecret)
        default:
            return error(404, "no route")
        }
    }

    private func list(_ request: URLRequest) -> (Int, Data) {
        let items = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        let page = max(Int(query["page_no"] ?? "1") ?? 1, 1)
        let size = min(max(Int(query["items_per_page"] ?? "20") ?? 20, 1), 100)
        var matching = products.sorted { $0.id > $1.id }
        if let search = query["search_value"]?.lowercased(), !search.isEmpty {
            matching = matching.filter { $0.name.lowercased().contains(search) || ($0.description ?? "").lowercased().contains(search) }
        }
        let slice = matching.dropFirst((page - 1) * size).prefix(size).map { product in
            MarketProductSummaryJSON(
                id: product.id, vendorID: product.vendorID, vendorName: product.vendors.name, name: product.name,
                description: product.description, thumbnail: product.thumbnail, currency: product.currency, price: product.price,
                bargainPrice: product.bargainPrice, discountedPrice: product.discountedPrice, stock: product.stock,
                createdAt: product.createdAt, issuedAt: product.issuedAt
            )
        }
        return (200, encode(MarketPageJSON(pageNo: page, itemsPerPage: size, totalCount: matching.count, pages: Array(slice))))
    }

    /// The vendor the `identifier` header names, or the 401 answer.
    private func vendor(of request: URLRequest) -> Result<Vendor, Failure> {
        guard let identifier = request.value(forHTTPHeaderField: "identifier"), let vendor = vendors.first(where: { $0.identifier == identifier })
        else { return .failure(Failure(answer: error(401, "unknown identifier"))) }
        return .success(vendor)
    }

    struct Failure: Error { let answer: (Int, Data) }

    /// The product `id` of the request's vendor, checked against `secret`.
    private func owned(_ request: URLRequest, id: Int, secret: String?) -> Result<Int, Failure> {
        vendor(of: request).flatMap { vendor in
            guard let index = products.firstIndex(where: { $0.id == id }) else { return .failure(Failure(answer: error(404, "no product"))) }
            guard secret == vendor.secret, products[index].vendorID == vendor.id else { return .failure(Failure(answer: error(403, "forbidden"))) }
            return .success(index)
        }
    }

    private func modify(_ request: URLRequest, id: Int) -> (Int, Data) {
        let body = request.jsonBody ?? [:]
        switch owned(request, id: id, secret: body["secret"] as? String) {
        case .failure(let failure):
            return failure.answer
        case .success(let index):
            var product = products[index]
            if let name = body["name"] as? String { product.name = name }
            if let description = (body["description"] ?? body["descriptions"]) as? String { product.description = description }
            if let price = body["price"] as? Double { product.price = price }
            if let discount = body["discounted_price"] as? Double { product.discountedPrice = discount }
            if let stock = body["stock"] as? Int { product.stock = stock }
            if let currency = body["currency"] as? String { product.currency = currency }
            guard product.discountedPrice <= product.price else { return error(400, "할인 가격이 상품 가격보다 큽니다.") }
            product.bargainPrice = product.price - product.discountedPrice
            products[index] = product
            return (202, encode(product))
        }
    }

    private func lookUp(_ request: URLRequest, id: Int, archived: Bool) -> (Int, Data) {
        switch owned(request, id: id, secret: request.jsonBody?["secret"] as? String) {
        case .failure(let failure):
            return failure.answer
        case .success:
            let secret = productSecrets[id] ?? ""
            return (200, Data((archived ? MarketDeleteToken(productID: id, productSecret: secret).path : secret).utf8))
        }
    }

    private func delete(_ request: URLRequest, id: Int, productSecret: String) -> (Int, Data) {
        if case .failure(let failure) = vendor(of: request) { return failure.answer }
        guard let index = products.firstIndex(where: { $0.id == id }) else { return error(404, "no product") }
        guard productSecrets[id] == productSecret else { return error(400, "wrong product secret") }
        return (200, encode(products.remove(at: index)))
    }

    private func error(_ status: Int, _ message: String) -> (Int, Data) {
        (status, encode(MarketErrorJSON(code: status, message: message)))
    }

    private func encode<Value: Encodable>(_ value: Value) -> Data {
        (try? JSONEncoder().encode(value)) ?? Data()
    }
}
