/// A vendor as its owner sees it (`POST /api/vendors`, `GET /api/vendors/me`, `POST /api/vendors/me/secret`):
/// the `identifier` goes in the `identifier` header of every product change, the `secret` in its body.
public struct MarketVendorJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    /// A lowercase UUID.
    public var identifier: String
    public var secret: String

    /// A vendor from its parts.
    public init(id: Int, name: String, identifier: String, secret: String) {
        self.id = id
        self.name = name
        self.identifier = identifier
        self.secret = secret
    }
}

/// Every market error: `{"code": 400, "message": "…"}`, `code` being the HTTP status.
public struct MarketErrorJSON: Codable, Sendable, Equatable {
    public var code: Int
    public var message: String

    /// An error body from its parts.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}
