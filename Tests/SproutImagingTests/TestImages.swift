@testable import SproutImaging

/// Test images made in code: bitmaps with a coloured top-left corner, encoded with the module's own encoders or
/// by hand (PNG chunks with stored deflate), plus byte surgery on the results (EXIF, sizes, truncation).
enum TestImages {
    static let red: [UInt8] = [230, 20, 20]
    static let blue: [UInt8] = [20, 40, 220]

    /// A `width` × `height` bitmap: blue with a red top-left quarter (width/4 × height/4).
    /// With `alpha`, RGBA where the right half is fully transparent.
    static func cornerBitmap(width: Int, height: Int, gray: Bool = false, alpha: Bool = false) -> Bitmap {
        let channels = (gray ? 1 : 3) + (alpha ? 1 : 0)
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let color = x < width / 4 && y < height / 4 ? red : blue
                pixels += gray ? [color[0]] : color
                if alpha { pixels.append(x >= width / 2 ? 0 : 255) }
            }
        }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// Noise, so that JPEG/PNG data is large and every byte matters.
    static func noiseBitmap(width: Int, height: Int, seed: UInt64) -> Bitmap {
        var random = SeededRandom(seed: seed)
        let pixels = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &random) }
        return Bitmap(width: width, height: height, channels: 3, pixels: pixels)
    }

    static func jpeg(_ bitmap: Bitmap, quality: Int = 92) throws -> [UInt8] {
        try JPEGCodec.encode(bitmap, quality: quality)
    }

    static func png(_ bitmap: Bitmap) throws -> [UInt8] {
        try PNGCodec.encode(bitmap)
    }

    /// Decodes an encoded image in full (no scaling), to check what a thumbnail really contains.
    static func decode(_ bytes: [UInt8]) throws -> Bitmap {
        try bytes.withUnsafeBytes { bytes in
            switch ImageProcessor.format(of: bytes) {
            case .jpeg: try JPEGCodec.decode(bytes, header: JPEGCodec.readHeader(bytes), scaleDenominator: 1)
            case .png: try PNGCodec.decode(bytes) { _, _ in }
            case nil: throw ImageRejection.notAnImage
            }
        }
    }

    /// The colour at (x, y), as RGB (gray repeated), ignoring alpha.
    static func rgb(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> [UInt8] {
        let start = (y * bitmap.width + x) * bitmap.channels
        let pixel = Array(bitmap.pixels[start..<start + bitmap.channels])
        return bitmap.channels >= 3 ? Array(pixel[0..<3]) : [pixel[0], pixel[0], pixel[0]]
    }

    static func isRed(_ color: [UInt8]) -> Bool { color[0] > 150 && color[2] < 100 }
    static func isBlue(_ color: [UInt8]) -> Bool { color[0] < 100 && color[2] > 150 }

    // MARK: - JPEG surgery

    /// An APP1 segment holding an EXIF TIFF structure with one IFD0 entry: Orientation (0x0112, SHORT) = `value`.
    static func exifSegment(orientation value: UInt16, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            let bytes = (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) }
            return bigEndian ? bytes.reversed() : bytes
        }
        let tiff: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
            + u16(1)  // one entry
            + u16(0x0112) + u16(3) + u32(1) + u16(value) + [0, 0]
            + u32(0)  // no next IFD
        return app1(Array("Exif".utf8) + [0, 0] + tiff)
    }

    static func app1(_ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// `jpeg` with `segment` inserted right after SOI.
    static func inserting(_ segment: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// `jpeg` with the size in its start-of-frame marker replaced.
    static func settingFrameSize(of jpeg: [UInt8], width: Int, height: Int) -> [UInt8] {
        var bytes = jpeg
        let offset = frameOffset(jpeg)
        bytes[offset + 5] = UInt8(height >> 8)
        bytes[offset + 6] = UInt8(height & 0xFF)
        bytes[offset + 7] = UInt8(width >> 8)
        bytes[offset + 8] = UInt8(width & 0xFF)
        return bytes
    }

    /// `jpeg` (one component, gray) with its frame declaring four components, as a CMYK file does.
    static func declaringFourComponents(_ jpeg: [UInt8]) -> [UInt8] {
        let offset = frameOffset(jpeg)
        precondition(jpeg[offset + 9] == 1, "expects a gray JPEG")
        let header = Array(jpeg[offset + 4..<offset + 9])  // precision, height, width
        let components = (1...4).flatMap { id -> [UInt8] in [UInt8(id), 0x11, 0] }
        let frame: [UInt8] = [0xFF, 0xC0, 0, UInt8(8 + components.count)] + header + [4] + components
        return Array(jpeg[..<offset]) + frame + Array(jpeg[(offset + 2 + 8 + 3)...])
    }

    /// Offset of the SOF0/SOF1/SOF2 marker, walking the marker segments from SOI.
    static func frameOffset(_ jpeg: [UInt8]) -> Int {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            if (0xC0...0xC2).contains(jpeg[offset + 1]) { return offset }
            offset += 2 + Int(jpeg[offset + 2]) << 8 + Int(jpeg[offset + 3])
        }
        preconditionFailure("no frame marker")
    }

    // MARK: - PNG by hand

    /// A PNG chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return bigEndian32(UInt32(data.count)) + typed + bigEndian32(crc32(typed))
    }

    static func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 2,
                     interlaced: Bool = false) -> [UInt8] {
        chunk("IHDR", bigEndian32(width) + bigEndian32(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0])
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG written by hand (filter 0, stored deflate), for what the simplified writer cannot make: palette,
    /// 16-bit and Adam7-interlaced files. `pixel(x, y)` gives one pixel's bytes as the file stores them.
    static func handMadePNG(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, interlaced: Bool,
                            extraChunks: [[UInt8]] = [], pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        // (x start, y start, x step, y step) of the seven Adam7 passes, or the whole image.
        let passes = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw = [UInt8]()
        for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
            for y in stride(from: y0, to: height, by: dy) {
                raw.append(0)  // filter: none
                for x in stride(from: x0, to: width, by: dx) { raw += pixel(x, y) }
            }
        }
        return pngSignature
            + ihdr(width: UInt32(width), height: UInt32(height), bitDepth: bitDepth, colorType: colorType,
                   interlaced: interlaced)
            + extraChunks.joined()
            + chunk("IDAT", zlibStored(raw))
            + chunk("IEND", [])
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, data.count - start)
            let final: UInt8 = start + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[start..<start + count]
            start += count
        } while start < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian32(b << 16 | a)
    }

    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// `png` with every chunk's CRC recomputed (after a test has changed chunk data on purpose).
    static func fixingCRCs(_ png: [UInt8]) -> [UInt8] {
        var bytes = png
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            guard length <= bytes.count - offset - 12 else { break }
            let crc = bigEndian32(crc32(Array(bytes[offset + 4..<offset + 8 + length])))
            bytes.replaceSubrange(offset + 8 + length..<offset + 12 + length, with: crc)
            offset += 12 + length
        }
        return bytes
    }
}

/// SplitMix64: a deterministic generator, so random inputs are the same on every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
