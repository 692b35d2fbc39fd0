import CImageLibraries

/// libpng 1.6's simplified API, which reports errors by return value (no setjmp needed on this side).
///
/// The simplified API offers no way to set libpng's user limits, so the ones compiled into the system's libpng
/// apply (Debian: 1,000,000 pixels per side, 8 MB per ancillary chunk such as a compressed iCCP or zTXt);
/// the pixel limit is checked on the raw IHDR before libpng sees the file, and again on what libpng reports.
enum PNGCodec {
    /// Width and height from the IHDR chunk, which the PNG specification puts right after the signature;
    /// nil when it is not there (libpng then reports what is wrong).
    static func declaredSize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        // signature (8), chunk length (4) = 13, "IHDR" (4), width (4), height (4)
        guard bytes.count >= 24, bigEndian(bytes, at: 8) == 13, bigEndian(bytes, at: 12) == 0x4948_4452 else {
            return nil
        }
        return (bigEndian(bytes, at: 16), bigEndian(bytes, at: 20))
    }

    /// Chunks that describe only the pixels and how to show them: no text, dates, EXIF or unknown (animation) chunks.
    private static let pixelChunks: Set<UInt32> = Set(
        ["IHDR", "PLTE", "tRNS", "IDAT", "IEND", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "bKGD", "pHYs"].map { name in
            name.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
    )

    /// Whether the file is a signature and whole chunks of `pixelChunks` alone, ending with IEND and nothing after
    /// it: such a file, once decoded without error, can serve as its own thumbnail.
    static func holdsOnlyPixelChunks(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bigEndian(bytes, at: offset)
            let type = UInt32(bigEndian(bytes, at: offset + 4))
            guard pixelChunks.contains(type), length <= bytes.count - offset - 12 else { return false }
            offset += 12 + length
            if type == 0x4945_4E44 { return offset == bytes.count }  // IEND
        }
        return false
    }

    private static func bigEndian(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Width and height as libpng reads them (signature, IHDR and the chunks before the image data).
    static func readSize(_ bytes: UnsafeRawBufferPointer) throws(ImageRejection) -> (width: Int, height: Int) {
        try reading(bytes) { image throws(ImageRejection) in (Int(image.pointee.width), Int(image.pointee.height)) }
    }

    /// Decodes every row (the full decode), as 8-bit sRGB gray or RGB, with alpha when the file has any
    /// (an alpha channel or tRNS); 16-bit, palette and interlaced files are converted by libpng.
    /// `accept` sees the size from the header first and may refuse it before any pixel memory is allocated.
    static func decode(
        _ bytes: UnsafeRawBufferPointer,
        accepting accept: (_ width: Int, _ height: Int) throws(ImageRejection) -> Void
    ) throws(ImageRejection) -> Bitmap {
        try reading(bytes) { image throws(ImageRejection) in
            let (width, height) = (Int(image.pointee.width), Int(image.pointee.height))
            try accept(width, height)
            let color = image.pointee.format & PNG_FORMAT_FLAG_COLOR != 0
            let alpha = image.pointee.format & PNG_FORMAT_FLAG_ALPHA != 0
            image.pointee.format = (color ? PNG_FORMAT_FLAG_COLOR : 0) | (alpha ? PNG_FORMAT_FLAG_ALPHA : 0)
            let channels = (color ? 3 : 1) + (alpha ? 1 : 0)
            let pixels = [UInt8](filling: width * height * channels) { buffer in
                png_image_finish_read(image, nil, buffer.baseAddress, png_int_32(width * channels), nil) != 0
            }
            guard let pixels else { throw .unreadable("PNG: \(message(of: image))") }
            return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
        }
    }

    /// Runs `body` on a png_image whose header libpng has read from `bytes`, then releases libpng's state.
    /// libpng keeps the png_image's address (for its error messages), so it lives at one fixed place.
    private static func reading<Result>(
        _ bytes: UnsafeRawBufferPointer,
        _ body: (UnsafeMutablePointer<png_image>) throws(ImageRejection) -> Result
    ) throws(ImageRejection) -> Result {
        let image = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
        image.initialize(to: png_image())
        defer {
            png_image_free(image)  // a no-op once a failure or png_image_finish_read has released it
            image.deallocate()
        }
        image.pointee.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(image, bytes.baseAddress, bytes.count) != 0 else {
            throw .unreadable("PNG: \(message(of: image))")
        }
        return try body(image)
    }

    /// Encodes an 8-bit bitmap (gray, gray + alpha, RGB or RGBA) as a non-interlaced PNG.
    static func encode(_ bitmap: Bitmap) throws(ImageRejection) -> [UInt8] {
        let image = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
        image.initialize(to: png_image())
        defer {
            png_image_free(image)
            image.deallocate()
        }
        image.pointee.version = png_uint_32(PNG_IMAGE_VERSION)
        image.pointee.width = png_uint_32(bitmap.width)
        image.pointee.height = png_uint_32(bitmap.height)
        image.pointee.format = (bitmap.channels >= 3 ? PNG_FORMAT_FLAG_COLOR : 0)
            | (bitmap.hasAlpha ? PNG_FORMAT_FLAG_ALPHA : 0)
        // libpng's PNG_IMAGE_PNG_SIZE_MAX: an upper bound for the whole file, so one pass always fits.
        let data = (bitmap.width * bitmap.channels + 1) * bitmap.height
        let compressed = data + (data + 7) / 8 + (data + 63) / 64 + 11
        let capacity = 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / 8192 + 1) + compressed
        var written = png_alloc_size_t(capacity)
        var output = [UInt8](repeating: 0, count: capacity)
        let succeeded = output.withUnsafeMutableBytes { output in
            bitmap.pixels.withUnsafeBytes { pixels in
                png_image_write_to_memory(image, output.baseAddress, &written, 0, pixels.baseAddress,
                                          png_int_32(bitmap.width * bitmap.channels), nil) != 0
            }
        }
        guard succeeded else { throw .unreadable("PNG encoding failed: \(message(of: image))") }
        output.removeSubrange(Int(written)...)
        return output
    }

    private static func message(of image: UnsafeMutablePointer<png_image>) -> String {
        let text = withUnsafeBytes(of: &image.pointee.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown error" : text
    }
}
