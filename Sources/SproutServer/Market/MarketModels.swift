import Foundation

/// An account's vendor credentials: `identifier` goes in the `identifier` header, `secret` in bodies.
struct MarketVendor: Sendable, Equatable {
    let id: Int
    let accountID: Int
    let name: String
    let identifier: String
    let secret: String
    let createdAt: Date
    /// When an administrator disabled it: it can change nothing until enabled again.
    var disabledAt: Date? = nil
}

enum MarketCurrency: String, Sendable, CaseIterable {
    case krw = "KRW"
    case usd = "USD"
}

/// One stored image of a product. Its files are `storageKey` + `.{ext}` (original) and `_thumb.{ext}`.
struct MarketProductImage: Sendable, Equatable {
    let id: Int
    let position: Int
    let storageKey: String
    let format: MarketImageFormat
    let createdAt: Date
}

enum MarketImageFormat: String, Sendable {
    case jpeg
    case png

    var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    var mediaType: String { self == .jpeg ? "image/jpeg" : "image/png" }
}

/// A product with everything a detail shows.
struct MarketProduct: Sendable, Equatable {
    let id: Int
    let vendorID: Int
    let vendorName: String
    let vendorCreatedAt: Date
    let name: String
    let description: String
    let currency: String
    let price: Double
    let discountedPrice: Double
    let stock: Int
    /// The unique random value the product was inserted under (its `secret` column), by which the creating
    /// transaction finds it. No credential: the delete flows' product secret is derived from the vendor secret
    /// (`MarketVendor.productSecret(of:)`).
    let creationKey: String
    let thumbnailImageID: Int?
    let createdAt: Date
    var images: [MarketProductImage]
    /// The vendor's account: the one person who still sees the product when a moderator hid it.
    var vendorAccountID: Int = 0
    /// When a moderator hid it.
    var hiddenAt: Date? = nil

    var bargainPrice: Double { price - discountedPrice }
}

/// A product in a list page: its thumbnail's file instead of every image.
struct MarketProductSummary: Sendable, Equatable {
    let id: Int
    let vendorID: Int
    let vendorName: String
    let name: String
    let description: String
    let currency: String
    let price: Double
    let discountedPrice: Double
    let stock: Int
    let thumbnailKey: String?
    let thumbnailFormat: MarketImageFormat?
    let createdAt: Date
}

struct MarketProductPage: Sendable {
    let pageNo: Int
    let itemsPerPage: Int
    let total: Int
    let products: [MarketProductSummary]
}

/// A validated new product, before its images are attached.
struct MarketProductDraft: Sendable, Equatable {
    var name: String
    var description: String
    var currency: MarketCurrency
    var price: Double
    var discountedPrice: Double
    var stock: Int
}

/// A PATCH: nil leaves a field as it is.
struct MarketProductChanges: Sendable, Equatable {
    var name: String?
    var description: String?
    var currency: MarketCurrency?
    var price: Double?
    var discountedPrice: Double?
    var stock: Int?
    var thumbnailImageID: Int?

    var isEmpty: Bool { self == MarketProductChanges() }
}

/// An image already checked, thumbnailed and stored, waiting for its product row.
struct StoredMarketImage: Sendable, Equatable {
    let storageKey: String
    let format: MarketImageFormat
    let byteCount: Int
}
