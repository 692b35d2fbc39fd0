import CImageCodecs

/// libjpeg(-turbo) through the setjmp-guarded calls of CImageCodecs.
enum JPEGCodec {
    struct Header {
        /// As stored, before EXIF orientation.
        var width: Int
        var height: Int
        /// 1 or 3 for what `decode` produces; nil when the colour space is not supported (CMYK, YCCK, other).
        var components: Int?
        var orientation: ExifOrientation
        /// A progressive JPEG (SOF2): decoding keeps every coefficient of the image and passes over all of them
        /// once a scan, so its cost is not bounded by the file's size.
        var isProgressive = false
    }

    /// Reads the markers up to the first scan: size, colour space and EXIF orientation. Decodes no pixels.
    static func readHeader(_ bytes: UnsafeRawBufferPointer) throws(ImageRejection) -> Header {
        var header = sprout_jpeg_header()
        var orientation = ExifOrientation.up
        let failure: String? = withMessageBuffer { message in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Int(SPROUT_JPEG_EXIF_CAPACITY)) { exif in
                guard sprout_jpeg_read_header(bytes.bytePointer, bytes.count, &header, exif.baseAddress, message) == 1
                else { return false }
                let payload = UnsafeRawBufferPointer(start: exif.baseAddress, count: header.exif_length)
                orientation = ExifOrientation(exifPayload: payload)
                return true
            }
        }
        if let failure { throw .unreadable("JPEG: \(failure)") }
        let components = Int(header.output_components)
        return Header(width: Int(header.width), height: Int(header.height),
                      components: components == 0 ? nil : components, orientation: orientation,
                      isProgressive: header.progressive != 0)
    }

    /// Decodes the whole image, scaled down by 1/`scaleDenominator` (1, 2, 4 or 8) in the DCT.
    /// Any corrupt-data warning (a truncated file, a bad Huffman code...) fails the decode.
    static func decode(_ bytes: UnsafeRawBufferPointer, header: Header,
                       scaleDenominator: Int) throws(ImageRejection) -> Bitmap {
        guard let components = header.components else { throw .unreadable("unsupported colour space") }
        // libjpeg rounds scaled sizes up.
        let width = (header.width + scaleDenominator - 1) / scaleDenominator
        let height = (header.height + scaleDenominator - 1) / scaleDenominator
        var decoded: (width: Int32, height: Int32, components: Int32) = (0, 0, 0)
        var pixels: [UInt8]?
        var sizeMismatch = false
        var tooCostly = false
        let failure: String? = withMessageBuffer { message in
            pixels = [UInt8](filling: width * height * components) { buffer in
                let result = sprout_jpeg_decode(bytes.bytePointer, bytes.count, Int32(scaleDenominator), buffer.baseAddress,
                                                buffer.count, &decoded.width, &decoded.height, &decoded.components, message)
                tooCostly = result == SPROUT_CODEC_TOO_COSTLY
                guard result == 1 else { return false }
                // The C side never writes past the buffer; this only guards the size arithmetic above.
                sizeMismatch = (Int(decoded.width), Int(decoded.height), Int(decoded.components))
                    != (width, height, components)
                return !sizeMismatch
            }
            return pixels != nil
        }
        if sizeMismatch { throw .unreadable("JPEG: unexpected decoded size") }
        if tooCostly { throw .tooCostly(width: header.width, height: header.height, reason: failure ?? "too costly") }
        guard let pixels else { throw .unreadable("JPEG: \(failure ?? "decoding failed")") }
        return Bitmap(width: width, height: height, channels: components, pixels: pixels)
    }

    /// Encodes a gray or RGB bitmap as a baseline JFIF JPEG with no other markers (so no EXIF).
    static func encode(_ bitmap: Bitmap, quality: Int) throws(ImageRejection) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let failure: String? = withMessageBuffer { message in
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                sprout_jpeg_encode(pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height),
                                   Int32(bitmap.channels), Int32(quality), &output, &size, message) == 1
            }
        }
        guard let output else { throw .unreadable("JPEG encoding failed: \(failure ?? "no output")") }
        defer { sprout_jpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    /// Runs `body` with a buffer for a C message; returns nil when `body` succeeds, else the message.
    private static func withMessageBuffer(_ body: (UnsafeMutablePointer<CChar>) -> Bool) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(SPROUT_CODEC_MESSAGE_CAPACITY)) { buffer in
            let message = buffer.baseAddress!
            message.initialize(to: 0)
            guard !body(message) else { return nil }
            let text = String(cString: message)
            return text.isEmpty ? "unknown error" : text
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes as C's `const unsigned char *` (nil for an empty buffer).
    var bytePointer: UnsafePointer<UInt8>? {
        baseAddress?.assumingMemoryBound(to: UInt8.self)
    }
}
