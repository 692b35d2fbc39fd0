import Foundation

/// One image of a product: the original as uploaded and its thumbnail (longest side 300 px on Sprout).
public struct MarketImage: Sendable, Hashable, Identifiable {
    /// The server's id; `MarketProductChanges.thumbnailID` names an image by it.
    public var id: Int
    /// The original.
    public var url: URL
    /// The thumbnail.
    public var thumbnailURL: URL
    /// When it was uploaded.
    public var issuedAt: Date

    /// An image with the given values.
    public init(id: Int, url: URL, thumbnailURL: URL, issuedAt: Date) {
        self.id = id
        self.url = url
        self.thumbnailURL = thumbnailURL
        self.issuedAt = issuedAt
    }
}
