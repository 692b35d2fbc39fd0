import Foundation

/// A product in full: the detail screen, and what register, modify and delete answer.
public struct MarketProduct: Sendable, Hashable, Identifiable {
    /// The vendor named inside a product.
    public struct Vendor: Sendable, Hashable {
        /// The vendor's id (the same as the product's `vendorID`).
        public var id: Int
        /// The vendor's name.
        public var name: String

        /// A vendor with the given values.
        public init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The server's id.
    public var id: Int
    /// The vendor that registered it; edit and delete show only when this is the signed-in vendor's id.
    public var vendorID: Int
    /// 3 to 100 characters.
    public var name: String
    /// Up to 1,000 characters; `""` when none was given.
    public var description: String
    /// The chosen image's thumbnail (the first image's unless a modify picked another).
    public var thumbnailURL: URL?
    /// The currency of the three amounts.
    public var currency: MarketCurrency
    /// The list price.
    public var price: Decimal
    /// The discount, an amount (not a percentage); 0 when there is none.
    public var discountedPrice: Decimal
    /// What the product sells for: `price − discountedPrice`, as the server computed it.
    public var bargainPrice: Decimal
    /// Units in stock.
    public var stock: Int
    /// When it was registered.
    public var createdAt: Date
    /// The same as `createdAt`; a modify does not move it.
    public var issuedAt: Date
    /// 1 to 5 images in upload order.
    public var images: [MarketImage]
    /// Who sells it.
    public var vendor: Vendor
    /// A moderator hid it (Sprout's `hidden`): only its vendor still gets it, and should see it marked.
    public var isHidden: Bool

    /// A product with the given values.
    public init(
        id: Int, vendorID: Int, name: String, description: String, thumbnailURL: URL?, currency: MarketCurrency,
        price: Decimal, discountedPrice: Decimal, bargainPrice: Decimal, stock: Int, createdAt: Date, issuedAt: Date,
        images: [MarketImage], vendor: Vendor, isHidden: Bool = false
    ) {
        self.id = id
        self.vendorID = vendorID
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
        self.images = images
        self.vendor = vendor
        self.isHidden = isHidden
    }

    /// Whether a discount applies.
    public var isDiscounted: Bool { discountedPrice > 0 }

    /// The product as a list shows it, for putting an edited product back into a loaded list.
    public var summary: MarketProductSummary {
        MarketProductSummary(
            id: id, vendorID: vendorID, vendorName: vendor.name, name: name, description: description,
            thumbnailURL: thumbnailURL, currency: currency, price: price, discountedPrice: discountedPrice,
            bargainPrice: bargainPrice, stock: stock, createdAt: createdAt, issuedAt: issuedAt
        )
    }
}
