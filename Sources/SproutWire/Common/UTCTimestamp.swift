import Foundation

/// `yyyy-MM-ddTHH:mm:ss.fffZ` in UTC with 0 (the board), 2 (the open market), 3 (Strapi) or 6 (Laravel) fraction digits, written digit by digit:
/// a feed of 20 posts carries ~250 timestamps, and building them from padded substrings was 16% of its CPU (perf).
public enum UTCTimestamp {
    /// 10^digits for 0…6 fraction digits (a table: this runs for every timestamp of every answer).
    private static let scales: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
    /// "00" to "99", two bytes each.
    private static let digitPairs: [UInt8] = (0..<100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }

    public static func string(from date: Date, fractionDigits: Int) -> String {
        String(unsafeUninitializedCapacity: length(fractionDigits: fractionDigits)) { buffer in
            write(date, fractionDigits: fractionDigits, into: buffer)
        }
    }

    /// How many bytes a timestamp with this many fraction digits takes.
    public static func length(fractionDigits: Int) -> Int {
        fractionDigits > 0 ? 21 + fractionDigits : 20
    }

    /// Writes `date` as `string(from:fractionDigits:)` spells it into `buffer`, which has room for
    /// `length(fractionDigits:)` bytes; returns how many it wrote. For writers that put it straight into an answer.
    @discardableResult
    public static func write(_ date: Date, fractionDigits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let interval = date.timeIntervalSince1970
        // Rounded to the unit shown, not cut: a date stored as whole milliseconds comes back a hair off — a REAL
        // on SQLite, and postgres-nio cuts a Date to whole microseconds downwards (….477 is stored as ….476999).
        // Cutting that would show the millisecond before, and a filter on the shown date would miss its row.
        let scale = scales[fractionDigits]
        let units = (interval * scale).rounded()
        let seconds = Int((units / scale).rounded(.down))
        let fraction = Int(units - Double(seconds) * scale)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        let digitPairs = Self.digitPairs
        var index = 0
        func put(_ value: Int, width: Int) {
            var value = value
            var offset = width - 1
            while offset > 0 {  // two digits at a time
                let pair = (value % 100) &* 2
                buffer[index + offset] = digitPairs[pair + 1]
                buffer[index + offset - 1] = digitPairs[pair]
                value /= 100
                offset -= 2
            }
            if offset == 0 { buffer[index] = UInt8(ascii: "0") + UInt8(value % 10) }
            index += width
        }
        func put(_ byte: Unicode.Scalar) {
            buffer[index] = UInt8(ascii: byte)
            index += 1
        }
        put(year, width: 4)
        put("-")
        put(month, width: 2)
        put("-")
        put(day, width: 2)
        put("T")
        put(secondOfDay / 3_600, width: 2)
        put(":")
        put(secondOfDay / 60 % 60, width: 2)
        put(":")
        put(secondOfDay % 60, width: 2)
        if fractionDigits > 0 {
            put(".")
            put(fraction, width: fractionDigits)
        }
        put("Z")
        return index
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`), in plain
    /// arithmetic: `gmtime_r` took glibc's time-zone lock (`__tz_convert`) for every timestamp, 3 % of a feed
    /// page's CPU (`perf`).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468  // days from 0000-03-01: a year then ends with its leap day
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 is March
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
