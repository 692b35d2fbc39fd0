/// Area-average ("box filter") downscaling: every target pixel is the exact average of the source area it
/// covers, partial source pixels weighted by their overlap. Colours are averaged weighted by alpha, so fully
/// transparent pixels do not bleed their (invisible) colour into the edges.
enum Resampler {
    /// Overlap of source pixel `index` with target pixels `first` and `first + 1`, in units of 1/(source × target)
    /// of the line: each source pixel is `target` units long and each target pixel `source` units long.
    private struct Span {
        var first: Int
        var firstWeight: UInt64
        var secondWeight: UInt64
    }

    private static func spans(source: Int, target: Int) -> [Span] {
        (0..<source).map { index in
            let start = index * target
            let first = start / source
            let firstWeight = min(start + target, (first + 1) * source) - start
            return Span(first: first, firstWeight: UInt64(firstWeight), secondWeight: UInt64(target - firstWeight))
        }
    }

    /// Adds every pixel of a source row, as `sample(pixel offset, channel)`, into the target columns it overlaps.
    @inline(__always)
    private static func reduceRow(
        _ row: UnsafeBufferPointer<UInt8>,
        channels: Int,
        columns: UnsafeBufferPointer<Span>,
        into line: UnsafeMutableBufferPointer<UInt64>,
        sample: (Int, Int) -> UInt64
    ) {
        for x in 0..<columns.count {
            let span = columns[x]
            let pixel = x * channels
            let first = span.first * channels
            if span.secondWeight == 0 {
                for channel in 0..<channels {
                    line[first + channel] &+= sample(pixel, channel) &* span.firstWeight
                }
            } else {
                for channel in 0..<channels {
                    let value = sample(pixel, channel)
                    line[first + channel] &+= value &* span.firstWeight
                    line[first + channels + channel] &+= value &* span.secondWeight
                }
            }
        }
    }

    /// `bitmap` scaled down to `width` × `height`, which must not exceed its size in either direction.
    static func downsample(_ bitmap: Bitmap, width: Int, height: Int) -> Bitmap {
        let (sw, sh, channels) = (bitmap.width, bitmap.height, bitmap.channels)
        precondition(width >= 1 && height >= 1 && width <= sw && height <= sh, "Resampler only scales down")
        if width == sw && height == sh { return bitmap }

        let columns = spans(source: sw, target: width)
        let rows = spans(source: sh, target: height)
        let alpha = bitmap.hasAlpha ? channels - 1 : -1
        let rowLength = width * channels
        // A source row reduced horizontally, then added with its vertical weights into `sums`.
        // Per target sample: Σ weight × value (× alpha for colours when there is alpha) — at most
        // source pixels × 255² — fits UInt64 comfortably.
        var line = [UInt64](repeating: 0, count: rowLength)
        var sums = [UInt64](repeating: 0, count: rowLength * height)

        bitmap.pixels.withUnsafeBufferPointer { source in
            columns.withUnsafeBufferPointer { columns in
                line.withUnsafeMutableBufferPointer { line in
                    sums.withUnsafeMutableBufferPointer { sums in
                        for y in 0..<sh {
                            line.update(repeating: 0)
                            let row = UnsafeBufferPointer(rebasing: source[y * sw * channels..<(y + 1) * sw * channels])
                            if alpha >= 0 {
                                reduceRow(row, channels: channels, columns: columns, into: line) { pixel, channel in
                                    let alphaValue = UInt64(row[pixel + alpha])
                                    return channel == alpha ? alphaValue : UInt64(row[pixel + channel]) &* alphaValue
                                }
                            } else {
                                reduceRow(row, channels: channels, columns: columns, into: line) { pixel, channel in
                                    UInt64(row[pixel + channel])
                                }
                            }
                            let span = rows[y]
                            let target = span.first * rowLength
                            for index in 0..<rowLength {
                                sums[target + index] &+= line[index] &* span.firstWeight
                            }
                            if span.secondWeight != 0 {
                                for index in 0..<rowLength {
                                    sums[target + rowLength + index] &+= line[index] &* span.secondWeight
                                }
                            }
                        }
                    }
                }
            }
        }

        // Every target pixel covers sw × sh units² in total.
        let area = UInt64(sw) * UInt64(sh)
        func rounded(_ value: UInt64, _ divisor: UInt64) -> UInt8 {
            UInt8(min(255, (value + divisor / 2) / divisor))
        }
        var pixels = [UInt8](repeating: 0, count: rowLength * height)
        for pixel in stride(from: 0, to: pixels.count, by: channels) {
            if alpha >= 0 {
                let coverage = sums[pixel + alpha]  // Σ weight × alpha
                pixels[pixel + alpha] = rounded(coverage, area)
                guard coverage > 0 else { continue }  // fully transparent: colour stays 0
                for channel in 0..<channels where channel != alpha {
                    pixels[pixel + channel] = rounded(sums[pixel + channel], coverage)
                }
            } else {
                for channel in 0..<channels {
                    pixels[pixel + channel] = rounded(sums[pixel + channel], area)
                }
            }
        }
        return Bitmap(width: width, height: height, channels: channels, pixels: pixels)
    }
}
