import NIOCore

/// An uploaded image checked by content and thumbnailed.
struct ProcessedMarketImage: Sendable {
    let format: MarketImageFormat
    let thumbnail: ByteBuffer
}

/// Checks an upload and makes its thumbnail. `SystemImageProcessor` does it with libjpeg and libpng; the
/// protocol lets a test count calls or stand in a failure.
protocol MarketImageProcessing: Sendable {
    /// Throws `MarketError` (400) for anything that is not a whole JPEG or PNG within the limits.
    func process(_ bytes: ByteBuffer) async throws -> ProcessedMarketImage
}
