/// The EXIF orientation (TIFF tag 0x0112) of a JPEG: how the stored pixels must be turned to display upright.
struct ExifOrientation: Equatable, Sendable {
    /// 1...8 as in the EXIF specification; 1 is "stored upright".
    let value: Int

    static let up = ExifOrientation(value: 1)

    init(value: Int) {
        self.value = (1...8).contains(value) ? value : 1
    }

    /// Orientations 5–8 turn the image by a quarter, so the displayed width is the stored height.
    var swapsAxes: Bool { value >= 5 }

    /// The displayed size of a stored `width` × `height` image.
    func displayedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// The orientation in an APP1 payload ("Exif\0\0" then a TIFF structure), read from IFD0 in either byte
    /// order. Anything missing, out of bounds or out of range gives orientation 1; it never traps.
    init(exifPayload payload: UnsafeRawBufferPointer) {
        self = Self.parse(payload) ?? .up
    }

    private static func parse(_ payload: UnsafeRawBufferPointer) -> ExifOrientation? {
        let prefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
        guard payload.starts(with: prefix) else { return nil }
        let tiff = UnsafeRawBufferPointer(rebasing: payload[prefix.count...])
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false  // "II"
        case (0x4D, 0x4D): bigEndian = true  // "MM"
        default: return nil
        }
        func integer(at offset: Int, size: Int) -> Int? {
            guard offset >= 0, size <= tiff.count, offset <= tiff.count - size else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(tiff[offset + (bigEndian ? index : size - 1 - index)])
                value = value << 8 | byte
            }
            return value
        }
        guard integer(at: 2, size: 2) == 42, let ifd = integer(at: 4, size: 4), let count = integer(at: ifd, size: 2)
        else { return nil }
        for entry in 0..<count {
            let offset = ifd + 2 + entry * 12
            guard let tag = integer(at: offset, size: 2), let type = integer(at: offset + 2, size: 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT (3) as the specification says; a LONG (4) from a sloppy writer is read too.
            switch type {
            case 3: return integer(at: offset + 8, size: 2).map(ExifOrientation.init(value:))
            case 4: return integer(at: offset + 8, size: 4).map(ExifOrientation.init(value:))
            default: return nil
            }
        }
        return nil
    }

    /// The bitmap turned upright: displayed pixel (x, y) comes from the stored pixel this orientation puts there.
    func apply(to bitmap: Bitmap) -> Bitmap {
        guard value != 1 else { return bitmap }
        let (sw, sh, channels) = (bitmap.width, bitmap.height, bitmap.channels)
        let (dw, dh) = displayedSize(width: sw, height: sh)
        let value = self.value
        // Where displayed (x, y) is stored.
        func stored(_ x: Int, _ y: Int) -> (Int, Int) {
            switch value {
            case 2: (sw - 1 - x, y)  // mirrored
            case 3: (sw - 1 - x, sh - 1 - y)  // turned 180°
            case 4: (x, sh - 1 - y)  // mirrored vertically
            case 5: (y, x)  // transposed
            case 6: (y, sh - 1 - x)  // to be turned 90° clockwise
            case 7: (sw - 1 - y, sh - 1 - x)  // transversed
            default: (sw - 1 - y, x)  // 8: to be turned 90° counter-clockwise
            }
        }
        var pixels = [UInt8](repeating: 0, count: bitmap.pixels.count)
        bitmap.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                var to = 0
                for y in 0..<dh {
                    for x in 0..<dw {
                        let (sx, sy) = stored(x, y)
                        let from = (sy * sw + sx) * channels
                        for channel in 0..<channels {
                            target[to + channel] = source[from + channel]
                        }
                        to += channels
                    }
                }
            }
        }
        return Bitmap(width: dw, height: dh, channels: channels, pixels: pixels)
    }
}
