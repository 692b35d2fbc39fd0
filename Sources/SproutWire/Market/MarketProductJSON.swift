/// A product in a list page (`pages[]`): the v2 fields plus v3's `vendorName` and `description`, which v2 apps
/// ignore. Money is a JSON double; `bargain_price` is `price − discounted_price`.
public struct MarketProductSummaryJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var vendorID: Int
    /// v3 only (camelCase even there); absent from v2 answers.
    public var vendorName: String?
    public var name: String
    /// v3 lists carry it; v2 lists did not.
    public var description: String?
    /// The chosen image's thumbnail URL.
    public var thumbnail: String
    public var currency: String
    public var price: Double
    public var bargainPrice: Double
    public var discountedPrice: Double
    public var stock: Int
    /// `MarketTimestamp` text.
    public var createdAt: String
    /// `MarketTimestamp` text; the same as `createdAt`.
    public var issuedAt: String

    enum CodingKeys: String, CodingKey {
        case id, vendorName, name, description, thumbnail, currency, price, stock
        case vendorID = "vendor_id"
        case bargainPrice = "bargain_price"
        case discountedPrice = "discounted_price"
        case createdAt = "created_at"
        case issuedAt = "issued_at"
    }

    /// A list item from its parts.
    public init(
        id: Int, vendorID: Int, vendorName: String?, name: String, description: String?, thumbnail: String,
        currency: String, price: Double, bargainPrice: Double, discountedPrice: Double, stock: Int,
        createdAt: String, issuedAt: String
    ) {
        self.id = id
        self.vendorID = vendorID
        self.vendorName = vendorName
        self.name = name
        self.description = description
        self.thumbnail = thumbnail
        self.currency = currency
        self.price = price
        self.bargainPrice = bargainPrice
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.createdAt = createdAt
        self.issuedAt = issuedAt
    }
}

/// A product in full (detail, and the answer to register, modify and delete): both generations' fields —
/// v2's `images[].succeed` and vendor dates, which v3 apps ignore.
public struct MarketProductJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var vendorID: Int
    public var name: String
    /// Never null; `""` when none was given. (A 2022-01-06 v2 capture lacked the key, so it decodes as optional.)
    public var description: String?
    public var thumbnail: String
    public var currency: String
    public var price: Double
    public var bargainPrice: Double
    public var discountedPrice: Double
    public var stock: Int
    public var createdAt: String
    public var issuedAt: String
    /// In upload order.
    public var images: [MarketImageJSON]
    public var vendors: MarketVendorSummaryJSON
    /// Sprout's own: `true` when a moderator hid the product, which then only its vendor sees; absent otherwise.
    public var hidden: Bool?

    enum CodingKeys: String, CodingKey {
        case id, name, description, thumbnail, currency, price, stock, images, vendors, hidden
        case vendorID = "vendor_id"
        case bargainPrice = "bargain_price"
        case discountedPrice = "discounted_price"
        case createdAt = "created_at"
        case issuedAt = "issued_at"
    }

    /// A product from its parts.
    public init(
        id: Int, vendorID: Int, name: String, description: String?, thumbnail: String, currency: String,
        price: Double, bargainPrice: Double, discountedPrice: Double, stock: Int, createdAt: String,
        issuedAt: String, images: [MarketImageJSON], vendors: MarketVendorSummaryJSON, hidden: Bool? = nil
    ) {
        self.id = id
        self.vendorID = vendorID
        self.name = name
        self.description = description
        self.thumbnail = thumbnail
        self.currency = currency
        self.price = price
        self.bargainPrice = bargainPrice
        self.discountedPrice = discountedPrice
        self.stock = stock
        self.createdAt = createdAt
        self.issuedAt = issuedAt
        self.images = images
        self.vendors = vendors
        self.hidden = hidden
    }
}

/// One image of a product: the original and its thumbnail, absolute URLs.
public struct MarketImageJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var url: String
    public var thumbnailURL: String
    /// v2 only (always true: Sprout stores an image before answering); v3 apps ignore it.
    public var succeed: Bool?
    public var issuedAt: String

    enum CodingKeys: String, CodingKey {
        case id, url, succeed
        case thumbnailURL = "thumbnail_url"
        case issuedAt = "issued_at"
    }

    /// An image from its parts.
    public init(id: Int, url: String, thumbnailURL: String, succeed: Bool?, issuedAt: String) {
        self.id = id
        self.url = url
        self.thumbnailURL = thumbnailURL
        self.succeed = succeed
        self.issuedAt = issuedAt
    }
}

/// The vendor inside a product detail (`vendors`): v3's `{id, name}` plus v2's dates.
public struct MarketVendorSummaryJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var createdAt: String?
    public var issuedAt: String?

    enum CodingKeys: String, CodingKey {
        case id, name
        case createdAt = "created_at"
        case issuedAt = "issued_at"
    }

    /// A vendor summary from its parts.
    public init(id: Int, name: String, createdAt: String?, issuedAt: String?) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.issuedAt = issuedAt
    }
}
