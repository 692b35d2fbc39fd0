import Foundation
import SproutWire

/// How the console writes times, sizes and roles. Times are UTC and say so: the console is read by operators
/// wherever the server runs, and the charts' days are UTC days too.
enum ConsoleFormat {
    static func time(_ date: Date?) -> String {
        guard let date else { return "없음" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    /// `2026-11-20T08:15:00Z`, for `<time datetime>`.
    static func machineTime(_ date: Date?) -> String {
        date.map { UTCTimestamp.string(from: $0, fractionDigits: 0) } ?? ""
    }

    /// A chart's day label: `11/20`.
    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "M/d"
        return formatter.string(from: date)
    }

    /// Bytes in the largest unit that keeps the number at least 1 (1024 a step), one decimal past KB.
    static func bytes(_ count: Int64?) -> String {
        guard let count else { return "알 수 없음" }
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// Thousands separated: `12,345`.
    static func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    static func role(_ role: AccountRole) -> String {
        switch role {
        case .user: "사용자"
        case .moderator: "모더레이터"
        case .admin: "관리자"
        }
    }
}
