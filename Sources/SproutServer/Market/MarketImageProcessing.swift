import NIOCore

/// An uploaded image checked by content and thumbnailed.
struct ProcessedMarketImage: Sendable {
    enum Thumbnail: Sendable {
        /// The original is its own thumbnail (already that small, nothing but pixels): stored once.
        case original
        case encoded(ByteBuffer)
    }

    let format: MarketImageFormat
    let thumbnail: Thumbnail
}

/// Why an upload is not a usable picture, phrased to follow the picture's name: "image 3 (photo.heic) is …".
struct MarketImageRefusal: Error, Equatable {
    let reason: String

    static let notAnImage = MarketImageRefusal(reason: "is neither a JPEG nor a PNG")
    static let unreadable = MarketImageRefusal(reason: "could not be decoded in full (truncated or corrupt)")
    /// A decompression bomb: "is 6324×6324 pixels, more than 12 megapixels for a progressive JPEG".
    static func tooCostly(width: Int, height: Int, reason: String) -> MarketImageRefusal {
        MarketImageRefusal(reason: "is \(width)×\(height) pixels, \(reason): too costly to decode")
    }
    static func tooManyPixels(width: Int, height: Int, maximumMegapixels: Int) -> MarketImageRefusal {
        MarketImageRefusal(reason: "is \(width)×\(height) pixels, larger than \(maximumMegapixels) megapixels")
    }

    /// The 400 for the `position`th image (from 1) of a request, named by its file name when it has one.
    func error(position: Int, filename: String?) -> MarketError {
        .badRequest("\(MarketImageRefusal.label(position: position, filename: filename)) \(reason).")
    }

    /// "image 3 (photo.heic)", or "image 3" for a part without a usable file name.
    static func label(position: Int, filename: String?) -> String {
        guard let filename, !filename.isEmpty, filename.count <= 100 else { return "image \(position)" }
        return "image \(position) (\(filename))"
    }
}
