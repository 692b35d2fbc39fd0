import Foundation
import SproutWire

/// Every endpoint of the open market as Sprout serves it, for either app generation, with the kit's models.
///
/// `generation` decides the few things the generations do differently: the description's key in `params` and
/// the PATCH body (`descriptions` for v2, `description` for v3) and the delete flow (v2 looks up the product
/// secret, v3 the archived path). Reading is the same for both: the page decoder takes either envelope.
/// Product changes carry `credentials.identifier` in the `identifier` header; the vendor calls need an account
/// token from the client's token provider (`Session.market(...)` gives a client that has both). Product calls
/// never carry the account token: the market knows vendors by `identifier`, and a 401 for an unknown identifier
/// must not reach the client's `onUnauthorized` and sign a session out.
public struct MarketClient: Sendable {
    /// The client requests go through.
    public let client: APIClient
    /// Which app generation's requests to send.
    public var generation: MarketAPIGeneration
    /// The vendor whose products this client changes; nil for a client that only reads.
    public var credentials: MarketVendorCredentials?

    /// Market calls through `client`.
    /// - Parameters:
    ///   - generation: the requests to send; `.v3` (the later apps) unless given.
    ///   - credentials: the vendor for register, modify and delete.
    public init(client: APIClient, generation: MarketAPIGeneration = .v3, credentials: MarketVendorCredentials? = nil) {
        self.client = client
        self.generation = generation
        self.credentials = credentials
    }

    // MARK: Reading

    /// `GET /healthChecker`: returns when the server answers 200 with `"OK"`.
    /// - Throws: `APIError.decoding` when the answer is something else.
    public func healthCheck() async throws(APIError) {
        try await productRoutes.send(Request(path: "/healthChecker") { data in
            guard Self.plainText(data) == "OK" else { throw MarketClientError.unexpectedAnswer("health check: \(Self.plainText(data))") }
        })
    }

    /// `GET /api/products`: one page, newest first.
    /// - Parameters:
    ///   - page: from 1.
    ///   - itemsPerPage: the server clamps it to 1…100.
    ///   - search: matches name or description (case-insensitive); nil or empty lists everything. Sprout takes
    ///     `search_value` from either generation.
    public func products(page: Int = 1, itemsPerPage: Int = 20, search: String? = nil) async throws(APIError) -> MarketPage {
        let search = search?.isEmpty == true ? nil : search
        let query = [("page_no", String(page)), ("items_per_page", String(itemsPerPage)), ("search_value", search)]
        return try await productRoutes.send(Request(path: "/api/products", query: query) { data in
            // The v2 server answered 204 with no body past the last page: an empty last page.
            guard !data.isEmpty else {
                return MarketPage(products: [], pageNo: page, itemsPerPage: itemsPerPage, totalCount: 0, lastPage: 0, hasNext: false, hasPrev: page > 1)
            }
            return try JSONDecoder().decode(MarketPageJSON.self, from: data).page()
        })
    }

    /// `GET /api/products/{id}`; 404 for an unknown id. With `credentials`, the `identifier` header goes along, so
    /// the vendor still gets its own product when a moderator hid it (marked `isHidden`); nobody else does.
    public func product(id: Int) async throws(APIError) -> MarketProduct {
        try await productRoutes.send(Self.productRequest(.get, "/api/products/\(id)", headers: credentials.map { ["identifier": $0.identifier] } ?? [:]))
    }

    // MARK: Changing products

    /// `POST /api/products`: registers a product as `multipart/form-data` — a `params` part with the JSON of
    /// `params` (its description key set by this client's `generation`) and one `images` part per upload, each
    /// with its file name and `Content-Type` — and the `identifier` header.
    /// - Throws: `APIError.invalidRequest` without `credentials` (nothing is sent); 400 for a broken rule, 401
    ///   for an unknown identifier, 403 for a wrong secret.
    public func register(_ params: MarketProductParams, images: [MarketUpload]) async throws(APIError) -> MarketProduct {
        var params = params
        params.generation = generation
        let json: Data
        do {
            json = try JSONEncoder().encode(params)
        } catch {
            throw .invalidRequest(reason: "the params cannot be encoded: \(error)")
        }
        var form = MultipartFormData()
        form.parts.append(MultipartFormData.Part(name: "params", contentType: "application/json", data: json))
        for image in images {
            form.append(image.data, named: "images", filename: image.filename, contentType: image.mediaType)
        }
        return try await productRoutes.send(Self.productRequest(.post, "/api/products", body: .multipart(form), headers: try identifierHeader()))
    }

    /// `PATCH /api/products/{id}` with `changes` as JSON (its description key set by this client's
    /// `generation`) and the `identifier` header; answers the product as it is now.
    /// - Throws: `APIError.invalidRequest` without `credentials`; 400, 401, 403 or 404 from the server.
    public func modify(id: Int, changes: MarketProductChanges) async throws(APIError) -> MarketProduct {
        var changes = changes
        changes.generation = generation
        return try await productRoutes.send(Self.productRequest(.patch, "/api/products/\(id)", body: .encodable(changes), headers: try identifierHeader()))
    }

    /// The delete flow's first step, with the vendor secret the person typed: v2 `POST /api/products/{id}/secret`
    /// (the answer is the product secret, unquoted text), v3 `POST /api/products/{id}/archived` (the answer is
    /// the path `/api/products/<token>`; quotes and white space around it are tolerated).
    /// - Throws: `APIError.invalidRequest` without `credentials`; 403 for a wrong secret or someone else's
    ///   product, 404 for an unknown one; `.decoding` for an answer that is no usable secret or path.
    public func deleteTarget(id: Int, vendorSecret: String) async throws(APIError) -> MarketDeleteTarget {
        let headers = try identifierHeader()
        let body = RequestBody.encodable(MarketSecretBody(secret: vendorSecret))
        switch generation {
        case .v2:
            return try await productRoutes.send(Request(method: .post, path: "/api/products/\(id)/secret", body: body, headers: headers) { data in
                let secret = Self.plainText(data)
                guard !secret.isEmpty, !secret.contains("/") else { throw MarketClientError.unexpectedAnswer("product secret: \(secret)") }
                return MarketDeleteTarget(productID: id, path: "/api/products/\(id)/\(FormEncoding.escape(secret))")
            })
        case .v3:
            return try await productRoutes.send(Request(method: .post, path: "/api/products/\(id)/archived", body: body, headers: headers) { data in
                guard let path = Self.deletePath(Self.plainText(data)) else {
                    throw MarketClientError.unexpectedAnswer("archived path: \(Self.plainText(data))")
                }
                return MarketDeleteTarget(productID: id, path: path)
            })
        }
    }

    /// The delete flow's second step: `DELETE` on the target's path; answers the product as it was.
    /// - Throws: `APIError.invalidRequest` without `credentials`; 400 for a wrong product secret or token.
    @discardableResult
    public func delete(_ target: MarketDeleteTarget) async throws(APIError) -> MarketProduct {
        try await productRoutes.send(Self.productRequest(.delete, target.path, headers: try identifierHeader()))
    }

    /// Deletes a product the generation's way: `deleteTarget(id:vendorSecret:)`, then `delete(_:)`.
    @discardableResult
    public func delete(id: Int, vendorSecret: String) async throws(APIError) -> MarketProduct {
        try await delete(deleteTarget(id: id, vendorSecret: vendorSecret))
    }

    // MARK: Vendors (the account's token)

    /// `POST /api/vendors`: makes the signed-in account a vendor and answers its credentials.
    /// - Throws: 401 without an account; 409 when the account already is a vendor or the name is taken; 400 for
    ///   a name outside 2…30 characters.
    public func registerVendor(name: String) async throws(APIError) -> MarketVendor {
        try await client.send(Self.vendorRequest(.post, "/api/vendors", body: .encodable(MarketVendorRegistration(name: name))))
    }

    /// `GET /api/vendors/me`: the signed-in account's vendor; 404 when it is none.
    public func myVendor() async throws(APIError) -> MarketVendor {
        try await client.send(Self.vendorRequest(.get, "/api/vendors/me"))
    }

    /// `POST /api/vendors/me/secret`: issues a new vendor secret (the old one stops working) and answers the vendor.
    public func rotateVendorSecret() async throws(APIError) -> MarketVendor {
        try await client.send(Self.vendorRequest(.post, "/api/vendors/me/secret"))
    }

    // MARK: Helpers

    /// `client` without its token provider and 401 handler, for the product routes.
    private var productRoutes: APIClient {
        APIClient(baseURL: client.baseURL, transport: client.transport, allowsInsecureHTTP: client.allowsInsecureHTTP)
    }

    private func identifierHeader() throws(APIError) -> [String: String] {
        guard let credentials else {
            throw .invalidRequest(reason: "no vendor credentials: a product change needs the identifier header")
        }
        return ["identifier": credentials.identifier]
    }

    private static func productRequest(
        _ method: HTTPMethod, _ path: String, body: RequestBody? = nil, headers: [String: String] = [:]
    ) -> Request<MarketProduct> {
        Request(method: method, path: path, body: body, headers: headers) { data in
            try JSONDecoder().decode(MarketProductJSON.self, from: data).product()
        }
    }

    private static func vendorRequest(_ method: HTTPMethod, _ path: String, body: RequestBody? = nil) -> Request<MarketVendor> {
        Request(method: method, path: path, body: body) { data in
            try JSONDecoder().decode(MarketVendorJSON.self, from: data).vendor
        }
    }

    /// A plain-text answer without the white space and quotes some servers put around it.
    static func plainText(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\"")))
    }

    /// The path to delete from the archived answer: `/api/products/<token>` as it is, the path of an absolute URL,
    /// or a bare token under `/api/products/`. Only a path is ever taken, so the `DELETE` goes to this server.
    static func deletePath(_ answer: String) -> String? {
        var path = answer
        if let url = URL(string: answer), url.scheme != nil {
            path = url.path
        } else if !answer.hasPrefix("/") {
            path = "/api/products/" + answer
        }
        let prefix = "/api/products/"
        guard path.hasPrefix(prefix) else { return nil }
        let token = path.dropFirst(prefix.count)
        guard !token.isEmpty, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_=+".contains($0)) }) else { return nil }
        return path
    }
}

/// Why a 2xx market answer could not be used (reported as `APIError.decoding`).
enum MarketClientError: Error, CustomStringConvertible {
    case unexpectedAnswer(String)

    var description: String {
        switch self {
        case .unexpectedAnswer(let text): "unexpected answer: \(text)"
        }
    }
}
