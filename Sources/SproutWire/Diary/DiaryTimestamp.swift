import Foundation

/// The Diary API's dates: UTC with milliseconds, `2026-11-23T11:02:03.456Z`. The server keeps every diary time as
/// whole milliseconds since 1970, so what a client is shown is exactly what it may send back as `since`.
public enum DiaryTimestamp {
    /// `milliseconds` since 1970 as the API writes them.
    public static func string(fromMilliseconds milliseconds: Int64) -> String {
        UTCTimestamp.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000), fractionDigits: 3)
    }

    /// `date` as the API writes it (cut to whole milliseconds).
    public static func string(from date: Date) -> String {
        string(fromMilliseconds: milliseconds(of: date))
    }

    /// Reads `yyyy-MM-ddTHH:mm:ss[.f…]Z` (UTC) as whole milliseconds since 1970; nil for anything else.
    public static func milliseconds(from text: String) -> Int64? {
        LaravelTimestamp.date(from: text).map(milliseconds(of:))
    }

    /// Whole milliseconds since 1970 (rounded: a date read back from text is a hair off its millisecond).
    public static func milliseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
