import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `yyyy-MM-ddTHH:mm:ss.fffZ` in UTC with 0 (the board), 2 (the open market), 3 (Strapi) or 6 (Laravel) fraction digits, written digit by digit:
/// a feed of 20 posts carries ~250 timestamps, and building them from padded substrings was 16% of its CPU (perf).
public enum UTCTimestamp {
    /// 10^digits for 0…6 fraction digits (a table: this runs for every timestamp of every answer).
    private static let scales: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    public static func string(from date: Date, fractionDigits: Int) -> String {
        let interval = date.timeIntervalSince1970
        // Rounded to the unit shown, not cut: a date stored as whole milliseconds comes back a hair off — a REAL
        // on SQLite, and postgres-nio cuts a Date to whole microseconds downwards (….477 is stored as ….476999).
        // Cutting that would show the millisecond before, and a filter on the shown date would miss its row.
        let scale = scales[fractionDigits]
        let units = (interval * scale).rounded()
        var seconds = time_t((units / scale).rounded(.down))
        let fraction = Int(units - Double(seconds) * scale)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let length = fractionDigits > 0 ? 21 + fractionDigits : 20
        return String(unsafeUninitializedCapacity: length) { buffer in
            var index = 0
            func put(_ value: Int, width: Int) {
                var value = value
                for offset in stride(from: width - 1, through: 0, by: -1) {
                    buffer[index + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                index += width
            }
            func put(_ byte: Unicode.Scalar) {
                buffer[index] = UInt8(ascii: byte)
                index += 1
            }
            put(Int(parts.tm_year) + 1900, width: 4)
            put("-")
            put(Int(parts.tm_mon) + 1, width: 2)
            put("-")
            put(Int(parts.tm_mday), width: 2)
            put("T")
            put(Int(parts.tm_hour), width: 2)
            put(":")
            put(Int(parts.tm_min), width: 2)
            put(":")
            put(Int(parts.tm_sec), width: 2)
            if fractionDigits > 0 {
                put(".")
                put(fraction, width: fractionDigits)
            }
            put("Z")
            return index
        }
    }
}
