import Foundation
import NIOCore
import NIOPosix
import SproutImaging

/// Checks an upload and makes its thumbnail with the system's libjpeg and libpng (`SproutImaging`): anything that
/// is not a whole JPEG or PNG within the limits, judged by the bytes alone, is a `MarketImageRefusal`. Each image
/// is decoded in full and thumbnailed on a pool of its own (`WorkPools.imageDecoding`, half the cores), never on an
/// event loop and never beside bcrypt, and only as many at once as that pool has threads, so ten uploads at once
/// queue instead of holding ten decoded images in memory. Decode *work* is bounded by `ImageLimits` before and
/// while decoding.
struct SystemImageProcessor: Sendable {
    let limits: ImageLimits
    let running: ConcurrencyLimit

    init(limits: ImageLimits = ImageLimits(), concurrency: Int = WorkPools.imageDecodingThreads) {
        self.limits = limits
        running = ConcurrencyLimit(max(1, concurrency))
    }

    func process(_ bytes: ByteBuffer) async throws -> ProcessedMarketImage {
        let limits = limits
        let result: Result<ProcessedImage, ImageRejection> = try await running.run {
            try await WorkPools.imageDecoding.runIfActive {
                bytes.withUnsafeReadableBytes { raw in Result { () throws(ImageRejection) in try ImageProcessor.process(raw, limits: limits) } }
            }
        }
        switch result {
        case .success(let image):
            return ProcessedMarketImage(
                format: image.format == .jpeg ? .jpeg : .png,
                thumbnail: image.thumbnailIsTheOriginal ? .original : .encoded(ByteBuffer(bytes: image.thumbnail))
            )
        case .failure(.notAnImage):
            throw MarketImageRefusal.notAnImage
        case .failure(.unreadable):
            throw MarketImageRefusal.unreadable
        case .failure(.tooCostly(let width, let height, let reason)):
            throw MarketImageRefusal.tooCostly(width: width, height: height, reason: reason)
        case .failure(.tooManyPixels(let width, let height)):
            throw MarketImageRefusal.tooManyPixels(width: width, height: height, maximumMegapixels: limits.maximumPixels / 1_000_000)
        }
    }
}
