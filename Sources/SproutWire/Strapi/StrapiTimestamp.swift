import Foundation

/// Strapi v3's date serialisation (JavaScript's `toISOString`): UTC, milliseconds, `Z` —
/// `2021-12-30T10:01:48.503Z`. The server writes it and SproutKit reads it, through these two functions.
public enum StrapiTimestamp {
    /// `date` as Strapi writes it (milliseconds, rounded down as JavaScript's `Date` keeps them).
    public static func string(from date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let laravel = LaravelTimestamp.string(from: Date(timeIntervalSince1970: milliseconds / 1000))
        // `…ss.uuuuuuZ` → `…ss.mmmZ`: the first three of the six fraction digits.
        return String(laravel.dropLast(4)) + "Z"
    }

    /// Reads `yyyy-MM-ddTHH:mm:ss[.f…]Z` (UTC); nil for anything else.
    public static func date(from text: String) -> Date? {
        LaravelTimestamp.date(from: text)
    }
}

extension Date {
    /// Whole milliseconds, as Strapi's JavaScript dates keep them: what is stored is what the client is shown.
    public var truncatedToMilliseconds: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
