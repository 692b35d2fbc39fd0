import Foundation
import HTTPTypes
import Hummingbird
import SproutWire

/// The yagom open-market API, v2 and v3 on the same routes: `/healthChecker` and `/api/products…`. Reads are
/// public; every change needs the vendor's `identifier` header (401 without a known one) and its secret (403).
struct MarketController<Context: ClientOriginRequestContext & CallerRequestContext> {
    let products: MarketProducts
    let json: MarketJSON
    let maxBodySize: Int

    static var maximumItemsPerPage: Int { 100 }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("healthChecker", use: healthCheck)
        routes.get("api/products", use: list)
        routes.get("api/products/{id}", use: show)
        routes.post("api/products", use: register)
        routes.patch("api/products/{id}", use: modify)
        routes.post("api/products/{id}/secret", use: productSecret)
        routes.post("api/products/{id}/archived", use: archivedPath)
        routes.delete("api/products/{id}/{secret}", use: deleteWithSecret)
        // v3's delete path holds a token where the other routes hold the id (the router needs one name per place).
        routes.delete("api/products/{id}", use: deleteWithToken)
        return routes
    }

    /// The JSON string `"OK"`: four bytes, quotes included.
    @Sendable func healthCheck(_ request: Request, context: Context) async throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "\"OK\"")))
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let query = request.queryFields
        let pageNo = max(1, try number(query, "page_no") ?? 1)
        let itemsPerPage = min(Self.maximumItemsPerPage, max(1, try number(query, "items_per_page") ?? 20))
        // Past the last possible page nothing can match; the offset would only overflow.
        guard pageNo <= Int.max / (itemsPerPage * 2) else { throw MarketError.badRequest("page_no is too large.") }
        // Text that is not UTF-8 (`%FF`) is refused, as the board and the todos refuse it, rather than read as no search.
        if case .invalidText? = query["search_value"] { throw MarketError.badRequest("search_value must be text (UTF-8).") }
        let search = query["search_value"]?.asText.map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
        if let search, search.count > 200 { throw MarketError.badRequest("search_value may be at most 200 characters long.") }
        let page = try await products.repository.page(pageNo: pageNo, itemsPerPage: itemsPerPage, search: search)
        return try Response.json(json.page(page))
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        guard let product = try await products.repository.product(id: try productID(context)),
              try await mayView(product, request, context)
        else { throw MarketError.productNotFound }
        var response = try Response.json(json.product(product))
        // Only its vendor sees a hidden product: no shared cache may keep that answer.
        if product.hiddenAt != nil { response.headers[.cacheControl] = "private, no-store" }
        return response
    }

    @Sendable func register(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request)
        let product = try await products.register(
            vendor: vendor, body: request.body, contentType: request.headers[.contentType], address: context.client.address
        )
        return try Response.json(json.product(product), status: .created)
    }

    @Sendable func modify(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request)
        let id = try productID(context)
        let product = try await products.modify(id: id, vendor: vendor, fields: try await bodyFields(request))
        return try Response.json(json.product(product), status: .accepted)
    }

    /// v2: the product secret as unquoted text.
    @Sendable func productSecret(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request)
        let id = try productID(context)
        let secret = try await products.productSecret(id: id, vendor: vendor, fields: try await bodyFields(request))
        return Self.plainText(secret)
    }

    /// v3: the delete path as unquoted text.
    @Sendable func archivedPath(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request)
        let id = try productID(context)
        let secret = try await products.productSecret(id: id, vendor: vendor, fields: try await bodyFields(request))
        return Self.plainText(MarketDeleteToken(productID: id, productSecret: secret).path)
    }

    @Sendable func deleteWithSecret(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request)
        let id = try productID(context)
        let secret = context.parameters.get("secret") ?? ""
        return try Response.json(json.product(try await products.delete(id: id, productSecret: secret, vendor: vendor)))
    }

    @Sendable func deleteWithToken(_ request: Request, context: Context) async throws -> Response {
        let vendor = try await vendor(of: request)
        guard let token = context.parameters.get("id").flatMap(MarketDeleteToken.init(text:)) else {
            throw MarketError.badRequest("The delete path is not one the archived lookup gave.")
        }
        return try Response.json(json.product(try await products.delete(id: token.productID, productSecret: token.productSecret, vendor: vendor)))
    }

    // MARK: - Request parts

    /// A product a moderator hid is there for its vendor only: signed in as the vendor's account, or calling with
    /// its identifier (the app's way).
    private func mayView(_ product: MarketProduct, _ request: Request, _ context: Context) async throws -> Bool {
        guard product.hiddenAt != nil else { return true }
        if context.caller.account?.id == product.vendorAccountID { return true }
        return (try? await vendor(of: request))?.id == product.vendorID
    }

    private func vendor(of request: Request) async throws -> MarketVendor {
        guard let identifier = request.headers[HTTPField.Name("identifier")!]?.trimmingWhitespace, !identifier.isEmpty,
              identifier.utf8.count <= 100,
              let vendor = try await products.vendors.vendor(identifier: identifier.lowercased())
        else { throw MarketError.unknownIdentifier }
        guard vendor.disabledAt == nil else { throw MarketError.vendorDisabled }
        return vendor
    }

    private func productID(_ context: Context) throws -> Int {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else { throw MarketError.productNotFound }
        return id
    }

    private func bodyFields(_ request: Request) async throws -> FormFields {
        try await request.bodyFields(limit: maxBodySize, refusal: MarketError.unreadableBody)
    }

    private func number(_ query: FormFields, _ name: String) throws -> Int? {
        guard let value = query[name] else { return nil }
        guard let text = value.asText?.trimmingWhitespace, let number = Int(text) else {
            throw MarketError.badRequest("\(name) must be a whole number.")
        }
        return number
    }

    private static func plainText(_ text: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
