/// Limits applied to every uploaded image.
public struct ImageLimits: Sendable, Equatable {
    /// Images with more pixels than this (width × height, from the header) are refused before any decoding,
    /// which bounds decoding memory: at most 4 bytes a pixel.
    public var maximumPixels: Int
    /// Thumbnails are scaled down so that their longer side is at most this many pixels (never scaled up).
    public var thumbnailLongestSide: Int
    /// Progressive JPEGs are refused above this many pixels: their decoding holds every coefficient of the
    /// image and passes over all of them once a scan, whatever the file's size (a 200 KB file of 40
    /// megapixels and 500 scans took 6-7 s). Phones write sequential JPEGs; progressive ones come from the web.
    public var maximumProgressivePixels: Int
    /// A PNG may declare at most this many pixels per byte of its file. PNG decoding cannot be scaled down, so
    /// its work follows the pixels, and deflate shrinks a flat image about a thousand times (a 6324×6324 PNG of
    /// zeros is a few hundred KB and took 5 s and 160 MB to decode). Photos and screenshots stay far below 32
    /// pixels a byte; flat artwork near it is still accepted up to the first megapixel.
    public var maximumPNGPixelsPerByte: Int

    /// The limits, by default 40 megapixels (12 for progressive JPEGs), 32 PNG pixels a byte beyond the first
    /// megapixel, and 300-pixel thumbnails.
    public init(
        maximumPixels: Int = 40_000_000, thumbnailLongestSide: Int = 300, maximumProgressivePixels: Int = 12_000_000,
        maximumPNGPixelsPerByte: Int = 32
    ) {
        self.maximumPixels = maximumPixels
        self.thumbnailLongestSide = thumbnailLongestSide
        self.maximumProgressivePixels = maximumProgressivePixels
        self.maximumPNGPixelsPerByte = maximumPNGPixelsPerByte
    }

    /// PNGs of up to this many pixels are accepted at any compression ratio (cheap to decode whatever they hold).
    static let pngPixelsAtAnyRatio = 1_000_000
}

/// Why an upload is not accepted as an image.
public enum ImageRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// The content starts with neither the JPEG nor the PNG signature (whatever its file name or media type says).
    case notAnImage
    /// A JPEG or PNG that cannot be decoded in full: truncated, corrupt, or an unsupported variant
    /// (for example a CMYK JPEG: "unsupported colour space"). The text is the decoder's, for logs.
    case unreadable(String)
    /// The header declares more pixels than `ImageLimits.maximumPixels` (sizes as displayed).
    case tooManyPixels(width: Int, height: Int)
    /// Decoding would cost far more than the file's size suggests (a decompression bomb), judged from the header
    /// before any decoding, or while decoding a progressive JPEG's scans. `reason` completes "… pixels, …".
    case tooCostly(width: Int, height: Int, reason: String)

    public var description: String {
        switch self {
        case .notAnImage: "not a JPEG or PNG image"
        case .unreadable(let reason): "unreadable image: \(reason)"
        case .tooManyPixels(let width, let height): "image too large: \(width)×\(height) pixels"
        case .tooCostly(let width, let height, let reason): "image too costly to decode: \(width)×\(height) pixels, \(reason)"
        }
    }
}

/// A validated image and its thumbnail.
public struct ProcessedImage: Sendable, Equatable {
    /// The format of the original, by signature; the thumbnail has the same format.
    public let format: ImageFormat
    /// Width of the original as displayed, that is after its EXIF orientation.
    public let width: Int
    /// Height of the original as displayed, that is after its EXIF orientation.
    public let height: Int
    /// The encoded thumbnail: upright, without EXIF or other metadata.
    public let thumbnail: [UInt8]
    /// Width of the thumbnail in pixels.
    public let thumbnailWidth: Int
    /// Height of the thumbnail in pixels.
    public let thumbnailHeight: Int
    /// Whether the original itself serves as the thumbnail (a PNG within the thumbnail's size holding pixels
    /// alone): `thumbnail` then holds the original's bytes, and a caller may store the original once.
    public let thumbnailIsTheOriginal: Bool

    /// A processed image as `ImageProcessor.process` describes it (public for callers' tests and fakes).
    public init(format: ImageFormat, width: Int, height: Int, thumbnail: [UInt8], thumbnailWidth: Int, thumbnailHeight: Int,
                thumbnailIsTheOriginal: Bool = false) {
        self.format = format
        self.width = width
        self.height = height
        self.thumbnail = thumbnail
        self.thumbnailWidth = thumbnailWidth
        self.thumbnailHeight = thumbnailHeight
        self.thumbnailIsTheOriginal = thumbnailIsTheOriginal
    }
}

/// Validates uploaded product images by content and makes their thumbnails.
///
/// Everything is synchronous, keeps no shared state and may run on several threads at once; each call uses
/// CPU and memory in proportion to the image (bounded by `ImageLimits.maximumPixels`), so callers run it off
/// the event loop (e.g. on NIO's thread pool) with bounded concurrency. See docs/images.md.
public enum ImageProcessor {
    /// JPEG thumbnails are encoded with this libjpeg quality.
    static let jpegQuality = 82

    /// The format whose signature `bytes` start with (JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`), or nil.
    /// Only the content counts, never a file name or a declared media type.
    public static func format(of bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        ImageFormat(signatureOf: bytes)
    }

    /// The format whose signature `bytes` start with, or nil.
    public static func format(of bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { format(of: $0) }
    }

    /// Format and displayed size (after EXIF orientation) from the header alone, without decoding pixels
    /// or applying limits.
    public static func dimensions(
        of bytes: UnsafeRawBufferPointer
    ) throws(ImageRejection) -> (format: ImageFormat, width: Int, height: Int) {
        switch format(of: bytes) {
        case nil:
            throw .notAnImage
        case .jpeg:
            let header = try JPEGCodec.readHeader(bytes)
            let size = header.orientation.displayedSize(width: header.width, height: header.height)
            return (.jpeg, size.width, size.height)
        case .png:
            let size = try PNGCodec.readSize(bytes)
            return (.png, size.width, size.height)
        }
    }

    /// Format and displayed size from the header alone.
    public static func dimensions(
        of bytes: [UInt8]
    ) throws(ImageRejection) -> (format: ImageFormat, width: Int, height: Int) {
        try withBytes(bytes) { bytes throws(ImageRejection) in try dimensions(of: bytes) }
    }

    /// Validates `bytes` as an image and makes its thumbnail.
    ///
    /// 1. The format comes from the signature; anything else is `.notAnImage`.
    /// 2. The header is read and more than `limits.maximumPixels` is `.tooManyPixels`, before any pixel memory
    ///    is allocated.
    /// 3. The whole image is decoded; a truncated or corrupt file (libjpeg's corrupt-data warnings included)
    ///    is `.unreadable`.
    /// 4. The thumbnail is an area-average downscale to at most `limits.thumbnailLongestSide` on the longer side
    ///    (never enlarged), turned upright by the JPEG's EXIF orientation, encoded in the original's format:
    ///    JPEG at quality 82, PNG keeping alpha when the original has any. It carries no metadata. A PNG already
    ///    within that size whose chunks hold pixels alone (no text, EXIF, animation or trailing bytes) is its own
    ///    thumbnail.
    public static func process(
        _ bytes: UnsafeRawBufferPointer,
        limits: ImageLimits = ImageLimits()
    ) throws(ImageRejection) -> ProcessedImage {
        switch format(of: bytes) {
        case nil: throw .notAnImage
        case .jpeg: try processJPEG(bytes, limits: limits)
        case .png: try processPNG(bytes, limits: limits)
        }
    }

    /// Validates `bytes` as an image and makes its thumbnail; see `process(_:limits:)`.
    public static func process(
        _ bytes: [UInt8],
        limits: ImageLimits = ImageLimits()
    ) throws(ImageRejection) -> ProcessedImage {
        try withBytes(bytes) { bytes throws(ImageRejection) in try process(bytes, limits: limits) }
    }

    private static func processJPEG(
        _ bytes: UnsafeRawBufferPointer,
        limits: ImageLimits
    ) throws(ImageRejection) -> ProcessedImage {
        let header = try JPEGCodec.readHeader(bytes)
        let displayed = header.orientation.displayedSize(width: header.width, height: header.height)
        try check(displayed.width, displayed.height, limits)
        if header.isProgressive && header.width * header.height > limits.maximumProgressivePixels {
            throw .tooCostly(
                width: displayed.width, height: displayed.height,
                reason: "more than \(limits.maximumProgressivePixels / 1_000_000) megapixels for a progressive JPEG"
            )
        }
        let thumbnail = thumbnailSize(displayed.width, displayed.height, longestSide: limits.thumbnailLongestSide)
        // The thumbnail's size before it is turned upright.
        let stored = header.orientation.swapsAxes ? (width: thumbnail.height, height: thumbnail.width) : thumbnail
        let scale = dctScale(header.width, header.height, atLeast: stored.width, stored.height)
        let decoded = try JPEGCodec.decode(bytes, header: header, scaleDenominator: scale)
        let small = Resampler.downsample(decoded, width: stored.width, height: stored.height)
        let upright = header.orientation.apply(to: small)
        return ProcessedImage(format: .jpeg, width: displayed.width, height: displayed.height,
                              thumbnail: try JPEGCodec.encode(upright, quality: jpegQuality),
                              thumbnailWidth: upright.width, thumbnailHeight: upright.height)
    }

    private static func processPNG(
        _ bytes: UnsafeRawBufferPointer,
        limits: ImageLimits
    ) throws(ImageRejection) -> ProcessedImage {
        // The raw IHDR first, so that libpng never even reads the header of a declared giant.
        if let declared = PNGCodec.declaredSize(bytes) {
            try check(declared.width, declared.height, limits)
            try checkCompression(declared.width, declared.height, fileBytes: bytes.count, limits)
        }
        let decoded = try PNGCodec.decode(bytes) { width, height throws(ImageRejection) in
            try check(width, height, limits)
        }
        let thumbnail = thumbnailSize(decoded.width, decoded.height, longestSide: limits.thumbnailLongestSide)
        if thumbnail == (decoded.width, decoded.height) && PNGCodec.holdsOnlyPixelChunks(bytes) {
            // Already a thumbnail's size with nothing but pixels: the file is its own thumbnail. Encoding it again
            // was 80 % of an upload's CPU (`perf`: zlib's deflate, ~6 ms for a 300×300 photo's 270 KB, at any level).
            return ProcessedImage(format: .png, width: decoded.width, height: decoded.height, thumbnail: Array(bytes),
                                  thumbnailWidth: decoded.width, thumbnailHeight: decoded.height, thumbnailIsTheOriginal: true)
        }
        let small = Resampler.downsample(decoded, width: thumbnail.width, height: thumbnail.height)
        return ProcessedImage(format: .png, width: decoded.width, height: decoded.height,
                              thumbnail: try PNGCodec.encode(small),
                              thumbnailWidth: small.width, thumbnailHeight: small.height)
    }

    /// A PNG's pixels against its file size (`ImageLimits.maximumPNGPixelsPerByte`).
    private static func checkCompression(_ width: Int, _ height: Int, fileBytes: Int, _ limits: ImageLimits) throws(ImageRejection) {
        let pixels = width * height
        guard pixels > ImageLimits.pngPixelsAtAnyRatio, pixels > fileBytes * limits.maximumPNGPixelsPerByte else { return }
        throw .tooCostly(
            width: width, height: height,
            reason: "more than \(limits.maximumPNGPixelsPerByte) pixels a byte of a \(fileBytes)-byte PNG"
        )
    }

    private static func check(_ width: Int, _ height: Int, _ limits: ImageLimits) throws(ImageRejection) {
        // Both sides come from 16- or 32-bit header fields, so the product cannot overflow.
        if width * height > limits.maximumPixels {
            throw .tooManyPixels(width: width, height: height)
        }
    }

    /// The largest denominator (8, 4, 2 or 1) by which libjpeg may scale a `width` × `height` JPEG down in the
    /// DCT (much cheaper than decoding every pixel) while staying at least `targetWidth` × `targetHeight`;
    /// the box filter does the rest. libjpeg rounds scaled sizes up.
    static func dctScale(_ width: Int, _ height: Int, atLeast targetWidth: Int, _ targetHeight: Int) -> Int {
        for denominator in [8, 4, 2] {
            let scaledWidth = (width + denominator - 1) / denominator
            let scaledHeight = (height + denominator - 1) / denominator
            if scaledWidth >= targetWidth && scaledHeight >= targetHeight { return denominator }
        }
        return 1
    }

    /// The thumbnail size for a `width` × `height` image: the longer side becomes `longestSide` (at least 1),
    /// the other keeps the aspect ratio, rounded, at least 1; an image that already fits keeps its size.
    static func thumbnailSize(_ width: Int, _ height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let target = max(1, longestSide)
        let longest = max(width, height)
        guard longest > target else { return (width, height) }
        func scaled(_ side: Int) -> Int { max(1, (2 * side * target + longest) / (2 * longest)) }
        return (scaled(width), scaled(height))
    }

    /// Runs `body` on the bytes of `array`, keeping its typed error.
    private static func withBytes<Result>(
        _ array: [UInt8],
        _ body: (UnsafeRawBufferPointer) throws(ImageRejection) -> Result
    ) throws(ImageRejection) -> Result {
        try array.withUnsafeBytes { bytes in Swift.Result { () throws(ImageRejection) in try body(bytes) } }.get()
    }
}
