/// Which app generation a client speaks; they differ in a few request keys and in the delete flow.
public enum MarketAPIGeneration: String, Sendable, Codable, CaseIterable {
    /// The seed app (2022): `descriptions` in `params`, delete by product secret.
    case v2
    /// Later apps: `description` in `params`, delete by the archived path.
    case v3

    /// The request key of the product description.
    public var descriptionKey: String { self == .v2 ? "descriptions" : "description" }
}

/// The `params` part of a register request. The server also takes every number as a numeric string, as the seed
/// app sends them; this encoder writes JSON numbers.
public struct MarketProductParams: Encodable, Sendable, Equatable {
    public var name: String
    public var description: String
    public var price: Double
    public var discountedPrice: Double
    public var stock: Int
    public var currency: String
    /// The vendor secret.
    public var secret: String
    /// Decides the description's key (`descriptions` for v2, `description` for v3).
    public var generation: MarketAPIGeneration

    /// Register parameters from their parts.
    public init(
        name: String, description: String, price: Double, discountedPrice: Double, stock: Int, currency: String,
        secret: String, generation: MarketAPIGeneration
    ) {
        self.name = name
        self.description = description
        self.price = price
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.currency = currency
        self.secret = secret
        self.generation = generation
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MarketRequestKey.self)
        try container.encode(name, forKey: "name")
        try container.encode(description, forKey: MarketRequestKey(generation.descriptionKey))
        try container.encode(price, forKey: "price")
        try container.encode(discountedPrice, forKey: "discounted_price")
        try container.encode(stock, forKey: "stock")
        try container.encode(currency, forKey: "currency")
        try container.encode(secret, forKey: "secret")
    }
}

/// A `PATCH /api/products/{id}` body: only the fields given change (a partial merge on the server).
public struct MarketProductChanges: Encodable, Sendable, Equatable {
    /// The vendor secret (required).
    public var secret: String
    public var name: String?
    public var description: String?
    public var price: Double?
    public var discountedPrice: Double?
    public var stock: Int?
    public var currency: String?
    /// One of the product's image ids, to become its thumbnail.
    public var thumbnailID: Int?
    public var generation: MarketAPIGeneration

    /// Changes from their parts; nil leaves a field as it is.
    public init(
        secret: String, name: String? = nil, description: String? = nil, price: Double? = nil,
        discountedPrice: Double? = nil, stock: Int? = nil, currency: String? = nil, thumbnailID: Int? = nil,
        generation: MarketAPIGeneration
    ) {
        self.secret = secret
        self.name = name
        self.description = description
        self.price = price
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.currency = currency
        self.thumbnailID = thumbnailID
        self.generation = generation
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MarketRequestKey.self)
        try container.encode(secret, forKey: "secret")
        try container.encodeIfPresent(name, forKey: "name")
        try container.encodeIfPresent(description, forKey: MarketRequestKey(generation.descriptionKey))
        try container.encodeIfPresent(price, forKey: "price")
        try container.encodeIfPresent(discountedPrice, forKey: "discounted_price")
        try container.encodeIfPresent(stock, forKey: "stock")
        try container.encodeIfPresent(currency, forKey: "currency")
        try container.encodeIfPresent(thumbnailID, forKey: "thumbnail_id")
    }
}

/// `{"secret": "<vendor secret>"}`, the body of the secret and archived lookups.
public struct MarketSecretBody: Codable, Sendable, Equatable {
    public var secret: String

    /// A lookup body for a vendor secret.
    public init(secret: String) { self.secret = secret }
}

/// `{"name": "…"}`, the body of `POST /api/vendors`.
public struct MarketVendorRegistration: Codable, Sendable, Equatable {
    public var name: String

    /// A registration for a vendor name.
    public init(name: String) { self.name = name }
}

struct MarketRequestKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ value: String) { stringValue = value }
    init(stringLiteral value: String) { stringValue = value }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
