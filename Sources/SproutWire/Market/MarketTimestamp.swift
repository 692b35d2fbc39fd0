import Foundation

/// The open market's dates: UTC without a zone letter, two fraction digits — `2022-01-19T08:25:27.27`, as the
/// v2 server wrote them right after a create. The server writes this form and SproutKit reads it.
public enum MarketTimestamp {
    /// `date` as the market writes it, to the hundredth of a second.
    public static func string(from date: Date) -> String {
        String(UTCTimestamp.string(from: date, fractionDigits: 2).dropLast())
    }

    /// Reads every form the market's servers and samples used: `2022-05-14T00:00:00.00` (v2),
    /// `2022-11-15T00:00:00` (v3) and the sample file's `2021-12-27 15:37:58.072`; nil for anything else.
    public static func date(from text: String) -> Date? {
        guard text.utf8.count >= 19, !text.hasSuffix("Z") else { return nil }
        var normalised = text
        if normalised.utf8.count > 10, Array(normalised.utf8)[10] == UInt8(ascii: " ") {
            normalised = String(normalised.prefix(10)) + "T" + String(normalised.dropFirst(11))
        }
        return LaravelTimestamp.date(from: normalised + "Z")
    }
}
