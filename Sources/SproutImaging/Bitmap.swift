/// Decoded 8-bit pixels: rows of `width * channels` bytes without padding, top row first.
/// Channels: 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA (alpha not premultiplied).
struct Bitmap: Sendable {
    let width: Int
    let height: Int
    let channels: Int
    let pixels: [UInt8]

    var hasAlpha: Bool { channels == 2 || channels == 4 }

    init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && (1...4).contains(channels) && pixels.count == width * height * channels)
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }
}

extension Array where Element == UInt8 {
    /// `count` bytes that `fill` writes, or nil when it returns false (the bytes are then discarded unread).
    /// Avoids zero-filling buffers of tens of megabytes that a decoder overwrites anyway.
    init?(filling count: Int, with fill: (UnsafeMutableBufferPointer<UInt8>) -> Bool) {
        var filled = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            filled = fill(buffer)
            initialized = filled ? count : 0
        }
        guard filled else { return nil }
        self = bytes
    }
}
