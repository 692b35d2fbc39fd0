import Foundation

/// A product as a list page shows it (a cell of the list or the grid).
public struct MarketProductSummary: Sendable, Hashable, Identifiable {
    /// The server's id.
    public var id: Int
    /// The vendor that registered it; edit and delete show only when this is the signed-in vendor's id.
    public var vendorID: Int
    /// The vendor's name (v3 lists carry it; nil from a v2-only server).
    public var vendorName: String?
    /// 3 to 100 characters.
    public var name: String
    /// Up to 1,000 characters (v3 lists carry it; nil from a v2-only server).
    public var description: String?
    /// The chosen image's thumbnail; nil when the server sent something that is no URL.
    public var thumbnailURL: URL?
    /// The currency of the three amounts.
    public var currency: MarketCurrency
    /// The list price.
    public var price: Decimal
    /// The discount, an amount (not a percentage); 0 when there is none.
    public var discountedPrice: Decimal
    /// What the product sells for: `price − discountedPrice`, as the server computed it.
    public var bargainPrice: Decimal
    /// Units in stock; 0 shows as "품절".
    public var stock: Int
    /// When it was registered.
    public var createdAt: Date
    /// The same as `createdAt` on every server seen.
    public var issuedAt: Date

    /// A summary with the given values.
    public init(
        id: Int, vendorID: Int, vendorName: String? = nil, name: String, description: String? = nil, thumbnailURL: URL?,
        currency: MarketCurrency, price: Decimal, discountedPrice: Decimal, bargainPrice: Decimal, stock: Int,
        createdAt: Date, issuedAt: Date
    ) {
        self.id = id
        self.vendorID = vendorID
        self.vendorName = vendorName
        self.name = name
        self.description = description
        self.thumbnailURL = thumbnailURL
        self.currency = currency
        self.price = price
        self.discountedPrice = discountedPrice
        self.bargainPrice = bargainPrice
        self.stock = stock
        self.createdAt = createdAt
        self.issuedAt = issuedAt
    }

    /// Whether a discount applies (the apps then strike the list price through and show `bargainPrice`).
    public var isDiscounted: Bool { discountedPrice > 0 }
}
