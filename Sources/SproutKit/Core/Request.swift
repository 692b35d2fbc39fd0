import Foundation

/// A typed description of one API call: where it goes, what it sends, and how its answer is read.
public struct Request<Response: Sendable>: Sendable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path below the client's base URL, such as `/api/v2/todos`.
    public var path: String
    /// Query items in order; a `nil` value leaves the item out.
    public var query: [(String, String?)]
    /// What the request sends, if anything.
    public var body: RequestBody?
    /// Extra headers; they win over the ones the client sets (`Accept`, `Content-Type`, `Authorization`).
    public var headers: [String: String]
    /// Turns a 2xx body into the response value.
    public var decode: @Sendable (Data) throws -> Response

    /// A request whose 2xx answer is read by `decode`.
    public init(
        method: HTTPMethod = .get,
        path: String,
        query: [(String, String?)] = [],
        body: RequestBody? = nil,
        headers: [String: String] = [:],
        decode: @escaping @Sendable (Data) throws -> Response
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.headers = headers
        self.decode = decode
    }
}

extension Request where Response: Decodable {
    /// A request whose answer is JSON decoded as `Response` with `decoder`.
    public init(
        method: HTTPMethod = .get,
        path: String,
        query: [(String, String?)] = [],
        body: RequestBody? = nil,
        headers: [String: String] = [:],
        decoder: JSONDecoder = JSONDecoder()
    ) {
        let decoder = UncheckedSendableBox(decoder)
        self.init(method: method, path: path, query: query, body: body, headers: headers) { data in
            try decoder.value.decode(Response.self, from: data)
        }
    }
}

extension Request where Response == Data {
    /// A request whose answer is the raw body.
    public init(method: HTTPMethod = .get, path: String, query: [(String, String?)] = [], body: RequestBody? = nil, headers: [String: String] = [:]) {
        self.init(method: method, path: path, query: query, body: body, headers: headers) { $0 }
    }
}

/// `JSONDecoder` is not declared `Sendable` everywhere, but a decoder that is configured once and only used to
/// decode is safe to share.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
