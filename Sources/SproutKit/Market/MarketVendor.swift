/// A vendor as its owner sees it: what `registerVendor`, `myVendor` and `rotateVendorSecret` answer.
public struct MarketVendor: Sendable, Hashable, Identifiable {
    /// The vendor id; products name their vendor by it.
    public var id: Int
    /// The vendor's name, unique on the server.
    public var name: String
    /// A lowercase UUID, sent in the `identifier` header of every product change.
    public var identifier: String
    /// The vendor secret, sent in the body of every product change and typed to delete a product.
    public var secret: String

    /// A vendor with the given values.
    public init(id: Int, name: String, identifier: String, secret: String) {
        self.id = id
        self.name = name
        self.identifier = identifier
        self.secret = secret
    }

    /// What a `MarketClient` needs to change this vendor's products.
    public var credentials: MarketVendorCredentials {
        MarketVendorCredentials(vendorID: id, identifier: identifier, secret: secret)
    }
}

/// The three values the market hands a vendor (the apps hard-coded them in a `User` enum): the id that decides
/// which products show edit controls, the `identifier` header and the `secret`.
public struct MarketVendorCredentials: Sendable, Hashable, Codable {
    /// The vendor id.
    public var vendorID: Int
    /// The `identifier` header value.
    public var identifier: String
    /// The vendor secret.
    public var secret: String

    /// Credentials with the given values.
    public init(vendorID: Int, identifier: String, secret: String) {
        self.vendorID = vendorID
        self.identifier = identifier
        self.secret = secret
    }
}
