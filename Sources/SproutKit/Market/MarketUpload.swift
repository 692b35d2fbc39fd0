import Foundation

/// One image to upload with a new product: its bytes, the file name the server sees and its media type.
/// Sprout takes JPEG and PNG (by content) of at most 307,200 bytes each; the kit sends the bytes as they are.
public struct MarketUpload: Sendable, Hashable {
    /// The image formats the market takes.
    public enum Format: String, Sendable, CaseIterable {
        /// `image/jpeg`, `.jpg`.
        case jpeg
        /// `image/png`, `.png`.
        case png

        /// The part's `Content-Type`.
        public var mediaType: String { self == .jpeg ? "image/jpeg" : "image/png" }
        /// The file name extension.
        public var fileExtension: String { self == .jpeg ? "jpg" : "png" }
    }

    /// The image's bytes.
    public var data: Data
    /// The part's file name (the server keeps none of it).
    public var filename: String
    /// The part's `Content-Type`.
    public var mediaType: String

    /// An upload with an explicit file name and media type.
    public init(data: Data, filename: String, mediaType: String) {
        self.data = data
        self.filename = filename
        self.mediaType = mediaType
    }

    /// An upload of `format`, named `image.jpg` or `image.png` unless `filename` is given.
    public init(data: Data, format: Format, filename: String? = nil) {
        self.init(data: data, filename: filename ?? "image.\(format.fileExtension)", mediaType: format.mediaType)
    }
}
