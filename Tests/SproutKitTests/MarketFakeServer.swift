import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// An in-memory market on `FakeServer`: the list with paging and search, details, PATCH and
/// both delete flows with the identifier and secret checks Sprout makes, every request recorded, failures
/// injectable and answers holdable — for store behaviour a live server cannot show on cue. The live tests check
/// the same flows against the real server.
final class MarketFakeServer: HTTPTransport, @unchecked Sendable {
    struct Vendor { var id: Int; var identifier: String; var secret: String }

    // Guarded by `server`'s lock; the routes run with it held.
    private var products: [MarketProductJSON] = []
    private var productSecrets: [Int: String] = [:]
    private var vendors: [Vendor] = []
    private let server = FakeServer(notFound: { _ in MarketFakeServer.error(404, "no route") })

    static let base = FakeServer.base

    init() {
        server.route("GET", "/api/products") { [unowned self] in self.list($0.request) }
        server.route("GET", "/api/products/:id") { [unowned self] request in
            guard let id = request.parameters["id"].flatMap(Int.init), let product = self.products.first(where: { $0.id == id }) else {
                return Self.error(404, "no product")
            }
            return .json(product)
        }
        server.route("PATCH", "/api/products/:id") { [unowned self] in self.modify($0.request, id: Self.id($0)) }
        server.route("POST", "/api/products/:id/secret") { [unowned self] in self.lookUp($0.request, id: Self.id($0), archived: false) }
        server.route("POST", "/api/products/:id/archived") { [unowned self] in self.lookUp($0.request, id: Self.id($0), archived: true) }
        server.route("DELETE", "/api/products/:id/:secret") { [unowned self] in
            self.delete($0.request, id: Self.id($0), productSecret: $0.parameters["secret"] ?? "")
        }
        server.route("DELETE", "/api/products/:token") { [unowned self] request in
            guard let token = request.parameters["token"].flatMap(MarketDeleteToken.init(text:)) else { return Self.error(400, "bad token") }
            return self.delete(request.request, id: token.productID, productSecret: token.productSecret)
        }
    }

    // MARK: Seeding and inspection

    /// Adds a vendor and returns its credentials.
    func addVendor(id: Int) -> MarketVendorCredentials {
        let vendor = Vendor(id: id, identifier: "00000000-0000-11ee-8000-\(String(format: "%012d", id))", secret: "secret\(id)")
        server.withLock { vendors.append(vendor) }
        return MarketVendorCredentials(vendorID: id, identifier: vendor.identifier, secret: vendor.secret)
    }

    /// Adds `count` products by `vendorID` ("상품 1" oldest) and returns their ids, oldest first.
    @discardableResult
    func addProducts(_ count: Int, by vendorID: Int = 7, name: (Int) -> String = { "상품 \($0)" }) -> [Int] {
        server.withLock {
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
        server.failNext(.answer(Self.error(status, "injected failure")), method: method, pathPrefix: pathPrefix)
    }

    var requests: [URLRequest] { server.requests }
    var productIDs: [Int] { server.withLock { products.map(\.id) } }
    func product(_ id: Int) -> MarketProductJSON? { server.withLock { products.first { $0.id == id } } }

    /// Answers are computed (the server acts) but not returned until `release()`.
    func hold() { server.hold() }

    func release() { server.release() }

    /// Waits (briefly) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws { try await server.waitForRequests(count) }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await server.send(request) }

    // MARK: Routes (called with the lock held)

    private static func id(_ request: FakeRequest) -> Int { request.parameters["id"].flatMap(Int.init) ?? 0 }

    private func list(_ request: URLRequest) -> FakeServer.Answer {
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
        return .json(MarketPageJSON(pageNo: page, itemsPerPage: size, totalCount: matching.count, pages: Array(slice)))
    }

    /// The vendor the `identifier` header names, or the 401 answer.
    private func vendor(of request: URLRequest) -> Result<Vendor, Failure> {
        guard let identifier = request.value(forHTTPHeaderField: "identifier"), let vendor = vendors.first(where: { $0.identifier == identifier })
        else { return .failure(Failure(answer: Self.error(401, "unknown identifier"))) }
        return .success(vendor)
    }

    struct Failure: Error { let answer: FakeServer.Answer }

    /// The product `id` of the request's vendor, checked against `secret`.
    private func owned(_ request: URLRequest, id: Int, secret: String?) -> Result<Int, Failure> {
        vendor(of: request).flatMap { vendor in
            guard let index = products.firstIndex(where: { $0.id == id }) else { return .failure(Failure(answer: Self.error(404, "no product"))) }
            guard secret == vendor.secret, products[index].vendorID == vendor.id else { return .failure(Failure(answer: Self.error(403, "forbidden"))) }
            return .success(index)
        }
    }

    private func modify(_ request: URLRequest, id: Int) -> FakeServer.Answer {
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
            guard product.discountedPrice <= product.price else { return Self.error(400, "할인 가격이 상품 가격보다 큽니다.") }
            product.bargainPrice = product.price - product.discountedPrice
            products[index] = product
            return .json(product, status: 202)
        }
    }

    private func lookUp(_ request: URLRequest, id: Int, archived: Bool) -> FakeServer.Answer {
        switch owned(request, id: id, secret: request.jsonBody?["secret"] as? String) {
        case .failure(let failure):
            return failure.answer
        case .success:
            let secret = productSecrets[id] ?? ""
            return .init(status: 200, body: Data((archived ? MarketDeleteToken(productID: id, productSecret: secret).path : secret).utf8))
        }
    }

    private func delete(_ request: URLRequest, id: Int, productSecret: String) -> FakeServer.Answer {
        if case .failure(let failure) = vendor(of: request) { return failure.answer }
        guard let index = products.firstIndex(where: { $0.id == id }) else { return Self.error(404, "no product") }
        guard productSecrets[id] == productSecret else { return Self.error(400, "wrong product secret") }
        return .json(products.remove(at: index))
    }

    private static func error(_ status: Int, _ message: String) -> FakeServer.Answer {
        .json(MarketErrorJSON(code: status, message: message), status: status)
    }
}
