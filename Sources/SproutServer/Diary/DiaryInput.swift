import Foundation
import SproutWire

/// What a `PUT` asks for. `weather` distinguishes "not sent" (keep) from `null` (remove).
struct DiaryWrite: Sendable, Equatable {
    enum WeatherChange: Sendable, Equatable {
        case keep
        case remove
        case set(DiaryWeather)
    }

    var title: String
    var body: String
    var createdMilliseconds: Int?
    var weather: WeatherChange
    var baseMilliseconds: Int?

    /// The entry's content after this write: a replace keeps `createdAt` and `weather` when they are not sent.
    func content(replacing old: DiaryContent?, now: Int) -> DiaryContent {
        let weather: DiaryWeather? = switch self.weather {
        case .keep: old?.weather
        case .remove: nil
        case .set(let weather): weather
        }
        return DiaryContent(title: title, body: body, createdMilliseconds: createdMilliseconds ?? old?.createdMilliseconds ?? now, weather: weather)
    }
}

/// Reads the Diary's ids, query parameters and bodies; anything wrong is a 400 that names it.
enum DiaryInput {
    static let maximumTitleLength = 1_000
    static let maximumBodyLength = 100_000
    static let maximumRequestBytes = 256 * 1024
    static let defaultLimit = 20
    static let defaultChangesLimit = 100
    static let maximumLimit = 100
    /// 9999-12-31T23:59:59.999Z: timestamps stay four-digit years.
    static let latestMilliseconds = 253_402_300_799_999

    /// A UUID in any case, answered lowercase.
    static func entryID(_ raw: String?) throws(DiaryError) -> String {
        guard let raw, let uuid = UUID(uuidString: raw) else { throw .badRequest("The entry id must be a UUID.") }
        return uuid.uuidString.lowercased()
    }

    enum ListQuery: Equatable {
        case page(limit: Int, offset: Int)
        case changes(since: Int, limit: Int)
    }

    static func listQuery(_ fields: FormFields) throws(DiaryError) -> ListQuery {
        let offset = try wholeNumber(fields, "offset", range: 0...Int(Int32.max))
        if let raw = fields["since"] {
            guard offset == nil else { throw .badRequest("offset cannot be combined with since: page with the now answered.") }
            guard let text = raw.asText, let since = timestamp(text) else {
                throw .badRequest("since must be a UTC timestamp such as 2026-11-23T11:02:03.456Z.")
            }
            let limit = try wholeNumber(fields, "limit", range: 1...maximumLimit) ?? defaultChangesLimit
            return .changes(since: since, limit: limit)
        }
        let limit = try wholeNumber(fields, "limit", range: 1...maximumLimit) ?? defaultLimit
        return .page(limit: limit, offset: offset ?? 0)
    }

    /// A DELETE's base: `baseUpdatedAt` in the query, or `If-Match` holding the same timestamp (quoted as an
    /// entity tag or not). Both given must agree; nil when neither is (an unconditional delete, as before).
    static func deleteBase(query: FormFields, ifMatch: String?) throws(DiaryError) -> Int? {
        let refusal = DiaryError.badRequest("baseUpdatedAt (or If-Match) must be a UTC timestamp such as 2026-11-23T11:02:03.456Z.")
        var base: Int?
        if let raw = query["baseUpdatedAt"] {
            guard let text = raw.asText, let parsed = timestamp(text) else { throw refusal }
            base = parsed
        }
        if let ifMatch = ifMatch?.trimmingWhitespace, !ifMatch.isEmpty {
            var tag = Substring(ifMatch)
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\"") { tag = tag.dropFirst().dropLast() }
            guard let parsed = timestamp(String(tag)) else { throw refusal }
            guard base == nil || base == parsed else { throw DiaryError.badRequest("baseUpdatedAt and If-Match name different versions.") }
            base = parsed
        }
        return base
    }

    static func timestamp(_ text: String) -> Int? {
        guard let milliseconds = DiaryTimestamp.milliseconds(from: text), (0...Int64(latestMilliseconds)).contains(milliseconds) else { return nil }
        return Int(milliseconds)
    }

    private static func wholeNumber(_ fields: FormFields, _ name: String, range: ClosedRange<Int>) throws(DiaryError) -> Int? {
        guard let raw = fields[name] else { return nil }
        guard let text = raw.asText, let value = Int(text), range.contains(value) else {
            throw .badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }
}

/// The `PUT` body, checked while it is decoded; each problem is a `DiaryError` naming the field.
struct DiaryWriteBody: Decodable {
    let write: DiaryWrite

    private enum Key: String, CodingKey {
        case title, body, createdAt, weather, baseUpdatedAt
    }

    private enum WeatherKey: String, CodingKey {
        case main, description, icon, tempC
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let title = try Self.text(container, .title, required: true, maximum: DiaryInput.maximumTitleLength) ?? ""
        guard !title.trimmingWhitespace.isEmpty else { throw DiaryError.badRequest("title must not be empty: it is the first line of the entry.") }
        guard !title.contains(where: \.isNewline) else { throw DiaryError.badRequest("title is the first line: it cannot hold a line break.") }
        let body = try Self.text(container, .body, required: false, maximum: DiaryInput.maximumBodyLength) ?? ""
        let created = try Self.timestamp(container, .createdAt)
        let base = try Self.timestamp(container, .baseUpdatedAt)
        var weather = DiaryWrite.WeatherChange.keep
        if container.contains(.weather) {
            if try container.decodeNil(forKey: .weather) {
                weather = .remove
            } else {
                guard let fields = try? container.nestedContainer(keyedBy: WeatherKey.self, forKey: .weather) else {
                    throw DiaryError.badRequest("weather must be an object {main, icon} (description and tempC optional) or null.")
                }
                weather = .set(try Self.weather(fields))
            }
        }
        write = DiaryWrite(title: title, body: body, createdMilliseconds: created, weather: weather, baseMilliseconds: base)
    }

    /// Checked as any weather the server would keep: OpenWeather's words and icon codes, a plausible temperature.
    /// `main` and `icon` are the contract's; `description` and `tempC` are extras, kept exactly when sent.
    private static func weather(_ container: KeyedDecodingContainer<WeatherKey>) throws -> DiaryWeather {
        guard let main = try? container.decode(String.self, forKey: .main), (1...40).contains(main.count), !main.contains("\u{0}") else {
            throw DiaryError.badRequest("weather.main must be text of 1 to 40 characters.")
        }
        guard let icon = try? container.decode(String.self, forKey: .icon), WeatherIcon.isValid(icon) else {
            throw DiaryError.badRequest("weather.icon must be an OpenWeather icon code such as 02n.")
        }
        var description: String?
        if !Self.isAbsent(container, .description) {
            guard let text = try? container.decode(String.self, forKey: .description), text.count <= 200, !text.contains("\u{0}") else {
                throw DiaryError.badRequest("weather.description, when given, must be text of at most 200 characters.")
            }
            description = text
        }
        var tempC: Double?
        if !Self.isAbsent(container, .tempC) {
            guard let degrees = try? container.decode(Double.self, forKey: .tempC), (-150...150).contains(degrees) else {
                throw DiaryError.badRequest("weather.tempC, when given, must be a number from -150 to 150.")
            }
            tempC = (degrees * 10).rounded() / 10
        }
        return DiaryWeather(main: main, description: description, icon: icon, tempC: tempC)
    }

    /// A key left out or sent as `null`: a field the writer does not give.
    private static func isAbsent<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) -> Bool {
        !container.contains(key) || ((try? container.decodeNil(forKey: key)) ?? false)
    }

    private static func text(_ container: KeyedDecodingContainer<Key>, _ key: Key, required: Bool, maximum: Int) throws -> String? {
        guard !isAbsent(container, key) else {
            if required { throw DiaryError.badRequest("\(key.stringValue) is required.") }
            return nil
        }
        guard let text = try? container.decode(String.self, forKey: key) else { throw DiaryError.badRequest("\(key.stringValue) must be text.") }
        // PostgreSQL's text cannot hold NUL; neither can a diary.
        guard !text.contains("\u{0}") else { throw DiaryError.badRequest("\(key.stringValue) cannot hold NUL characters.") }
        guard text.count <= maximum else { throw DiaryError.badRequest("\(key.stringValue) may be at most \(maximum) characters long.") }
        return text
    }

    private static func timestamp(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int? {
        guard !isAbsent(container, key) else { return nil }
        guard let text = try? container.decode(String.self, forKey: key), let milliseconds = DiaryInput.timestamp(text) else {
            throw DiaryError.badRequest("\(key.stringValue) must be a UTC timestamp such as 2026-11-23T11:02:03.456Z.")
        }
        return milliseconds
    }
}

/// OpenWeather's icon codes: two digits and `d` (day) or `n` (night).
enum WeatherIcon {
    static func isValid(_ icon: String) -> Bool {
        let scalars = Array(icon.unicodeScalars)
        return scalars.count == 3 && ("0"..."9").contains(scalars[0]) && ("0"..."9").contains(scalars[1])
            && (scalars[2] == "d" || scalars[2] == "n")
    }
}
