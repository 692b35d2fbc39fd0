/// An HTTP request method.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The method as sent on the wire, such as `GET`.
    public let rawValue: String

    /// A method by its wire name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A method written as a literal: `"PATCH"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Reads a resource.
    public static let get: HTTPMethod = "GET"
    /// Creates (or, in some legacy APIs, updates) a resource.
    public static let post: HTTPMethod = "POST"
    /// Replaces or updates a resource.
    public static let put: HTTPMethod = "PUT"
    /// Changes part of a resource.
    public static let patch: HTTPMethod = "PATCH"
    /// Deletes a resource.
    public static let delete: HTTPMethod = "DELETE"
}
