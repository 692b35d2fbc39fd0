import Foundation

/// The Laravel API's JSON, decoded into `Todo` values. Dates look like `2023-09-16T18:07:38.000000Z`.
struct TodoJSON: Decodable {
    let id: Int
    let title: String
    let isDone: Bool
    let createdAt: String
    let updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, title
        case isDone = "is_done"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    func todo() throws -> Todo {
        guard let created = LaravelDate.parse(createdAt), let updated = LaravelDate.parse(updatedAt) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unreadable timestamp in todo \(id)"))
        }
        return Todo(id: id, title: title, isDone: isDone, createdAt: created, updatedAt: updated)
    }
}

struct TodoEnvelopeJSON: Decodable {
    let data: TodoJSON
}

struct TodoListEnvelopeJSON: Decodable {
    struct Meta: Decodable {
        let currentPage: Int
        let lastPage: Int
        let perPage: Int
        let total: Int

        enum CodingKeys: String, CodingKey {
            case currentPage = "current_page"
            case lastPage = "last_page"
            case perPage = "per_page"
            case total
        }
    }

    let data: [TodoJSON]
    let meta: Meta

    func page() throws -> TodoPage {
        TodoPage(todos: try data.map { try $0.todo() }, currentPage: meta.currentPage, lastPage: meta.lastPage, perPage: meta.perPage, total: meta.total)
    }
}

/// Parses Laravel's UTC timestamps, `yyyy-MM-ddTHH:mm:ss[.ffffff]Z`, without a shared formatter.
enum LaravelDate {
    static func parse(_ text: String) -> Date? {
        let scalars = Array(text.utf8)
        guard scalars.count >= 20, scalars.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < scalars.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(scalars[index]) else { return nil }
                value = value * 10 + Int(scalars[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard scalars[4] == UInt8(ascii: "-"), scalars[7] == UInt8(ascii: "-"), scalars[10] == UInt8(ascii: "T"),
            scalars[13] == UInt8(ascii: ":"), scalars[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var fraction = 0.0
        if scalars[19] == UInt8(ascii: ".") {
            let digits = scalars[20..<(scalars.count - 1)]
            // Nanoseconds at most: more digits say nothing a Date can hold, and would overflow the sum.
            guard (1...9).contains(digits.count), let value = number(20..<(scalars.count - 1)) else { return nil }
            fraction = Double(value) / pow(10, Double(digits.count))
        } else if scalars.count != 20 {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        components.hour = hour
        components.minute = minute
        components.second = second
        guard let date = utcCalendar.date(from: components) else { return nil }
        return date.addingTimeInterval(fraction)
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
