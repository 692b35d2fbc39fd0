import Foundation

/// Mail Plug's dates: ISO 8601 UTC in whole seconds — `2023-06-05T03:31:22Z`, what `ISO8601DateFormatter()` reads
/// (one client traps when it cannot). The server writes this form and SproutKit reads it.
public enum BoardTimestamp {
    public static func string(from date: Date) -> String {
        UTCTimestamp.string(from: date, fractionDigits: 0)
    }

    /// Reads `yyyy-MM-ddTHH:mm:ss[.f…]Z`; nil for anything else.
    public static func date(from text: String) -> Date? {
        LaravelTimestamp.date(from: text)
    }
}
