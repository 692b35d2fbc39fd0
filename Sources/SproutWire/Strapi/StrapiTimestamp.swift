import Foundation

/// Strapi v3's date serialisation (JavaScript's `toISOString`): UTC, milliseconds, `Z` —
/// `2021-12-30T10:01:48.503Z`. The server writes it and SproutKit reads it, through these two functions.
public enum StrapiTimestamp {
    /// Milliseconds, as JavaScript's dates.
    public static let fractionDigits = 3

    /// `date` as Strapi writes it, to the millisecond. Sprout stores dates already cut to whole milliseconds
    /// (`truncatedToMilliseconds`), so this rounds only what the databases add or lose in the last digits.
    public static func string(from date: Date) -> String {
        UTCTimestamp.string(from: date, fractionDigits: fractionDigits)
    }

    /// Reads `yyyy-MM-ddTHH:mm:ss[.f…]Z` (UTC); nil for anything else.
    public static func date(from text: String) -> Date? {
        LaravelTimestamp.date(from: text)
    }
}

extension Date {
    /// Whole milliseconds, as Strapi's JavaScript dates keep them: what is stored is what the client is shown.
    public var truncatedToMilliseconds: Date {
        // Whole microseconds first, as `StrapiTimestamp.string` reads them, so a date truncated twice stays put.
        let microseconds = (timeIntervalSince1970 * 1_000_000).rounded()
        return Date(timeIntervalSince1970: (microseconds / 1000).rounded(.down) / 1000)
    }
}
