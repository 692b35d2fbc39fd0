import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Laravel's default date serialisation: UTC, microseconds, `Z` — `2023-09-16T18:07:38.000000Z`.
/// The server writes it and SproutKit reads it, through these two functions.
public enum LaravelTimestamp {
    /// Laravel writes microseconds.
    public static let fractionDigits = 6

    /// `date` as Laravel writes it.
    public static func string(from date: Date) -> String {
        UTCTimestamp.string(from: date, fractionDigits: fractionDigits)
    }

    /// Reads `yyyy-MM-ddTHH:mm:ss[.f…]Z` (UTC, up to nine fractional digits); nil for anything else.
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z"),
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes, 0..<4), let month = number(bytes, 5..<7), let day = number(bytes, 8..<10),
            let hour = number(bytes, 11..<13), let minute = number(bytes, 14..<16), let second = number(bytes, 17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if bytes[19] == UInt8(ascii: ".") {
            let digits = 20..<(bytes.count - 1)
            // Nanoseconds at most: more digits say nothing a Date can hold, and would overflow the sum.
            guard (1...9).contains(digits.count), let value = number(bytes, digits) else { return nil }
            fraction = Double(value) / pow(10, Double(digits.count))
        } else if bytes.count != 20 {
            return nil
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        // timegm normalises impossible dates (31 February); such a text is not a timestamp.
        guard Int(parts.tm_mday) == day, Int(parts.tm_mon) == month - 1 else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

extension Date {
    /// Whole seconds, as the original's MySQL `timestamp` columns kept them.
    public var truncatedToSeconds: Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down))
    }
}
