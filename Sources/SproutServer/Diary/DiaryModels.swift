import SproutWire

/// The weather kept with an entry: `main` and `icon` as the contract has them (OpenWeather's `weather[0].main` and
/// `icon`), and the optional extras `description` and °C, kept only when the writer sent them.
struct DiaryWeather: Sendable, Equatable {
    var main: String
    var description: String?
    var icon: String
    var tempC: Double?

    var json: DiaryWeatherJSON { DiaryWeatherJSON(main: main, description: description, icon: icon, tempC: tempC) }

    init(main: String, description: String? = nil, icon: String, tempC: Double? = nil) {
        self.main = main
        self.description = description
        self.icon = icon
        self.tempC = tempC
    }

    init(_ json: DiaryWeatherJSON) {
        self.init(main: json.main, description: json.description, icon: json.icon, tempC: json.tempC)
    }

    /// The `weather_*` columns; no weather when `weather_main` is null.
    static func columns(of row: some SQLRow) throws -> DiaryWeather? {
        guard try !row.isNull("weather_main") else { return nil }
        return DiaryWeather(
            main: try row.string("weather_main"),
            description: try row.optionalString("weather_description"),
            icon: try row.string("weather_icon"),
            tempC: try row.optionalDouble("weather_temp_c")
        )
    }
}

/// What a writer puts in an entry.
struct DiaryContent: Sendable, Equatable {
    var title: String
    var body: String
    var createdMilliseconds: Int
    var weather: DiaryWeather?
}

/// A row of `diary_entries`: a live entry or a tombstone.
struct DiaryEntry: SQLRowDecodable, Equatable {
    static let columns = """
        entry_id, title, body, created_ms, updated_ms, weather_main, weather_description, weather_icon, weather_temp_c, deleted
        """

    var id: String
    var content: DiaryContent
    var updatedMilliseconds: Int
    var deleted: Bool

    init(row: some SQLRow) throws {
        id = try row.string("entry_id")
        content = DiaryContent(
            title: try row.string("title"), body: try row.string("body"), createdMilliseconds: try row.int("created_ms"),
            weather: try DiaryWeather.columns(of: row)
        )
        updatedMilliseconds = try row.int("updated_ms")
        deleted = try row.bool("deleted")
    }

    var json: DiaryEntryJSON {
        DiaryEntryJSON(
            id: id, title: content.title, body: content.body,
            createdAt: DiaryTimestamp.string(fromMilliseconds: Int64(content.createdMilliseconds)),
            updatedAt: DiaryTimestamp.string(fromMilliseconds: Int64(updatedMilliseconds)), weather: content.weather?.json
        )
    }

    var change: DiaryChangeJSON {
        deleted
            ? DiaryChangeJSON(tombstoneID: id, updatedAt: DiaryTimestamp.string(fromMilliseconds: Int64(updatedMilliseconds)))
            : DiaryChangeJSON(entry: json)
    }
}

/// A row of `diary_versions`.
struct DiaryVersion: SQLRowDecodable {
    static let columns = """
        title, body, created_ms, updated_ms, weather_main, weather_description, weather_icon, weather_temp_c, replaced_ms, reason
        """

    var content: DiaryContent
    var updatedMilliseconds: Int
    var replacedMilliseconds: Int
    var reason: String

    init(row: some SQLRow) throws {
        content = DiaryContent(
            title: try row.string("title"), body: try row.string("body"), createdMilliseconds: try row.int("created_ms"),
            weather: try DiaryWeather.columns(of: row)
        )
        updatedMilliseconds = try row.int("updated_ms")
        replacedMilliseconds = try row.int("replaced_ms")
        reason = try row.string("reason")
    }

    var json: DiaryVersionJSON {
        DiaryVersionJSON(
            title: content.title, body: content.body,
            createdAt: DiaryTimestamp.string(fromMilliseconds: Int64(content.createdMilliseconds)), weather: content.weather?.json,
            updatedAt: DiaryTimestamp.string(fromMilliseconds: Int64(updatedMilliseconds)),
            replacedAt: DiaryTimestamp.string(fromMilliseconds: Int64(replacedMilliseconds)), reason: reason
        )
    }
}

/// One page of changes for `since`.
struct DiaryChanges: Sendable {
    var changes: [DiaryEntry]
    var nowMilliseconds: Int
    var hasMore: Bool
}

/// What a `PUT` did.
enum DiaryPutOutcome: Sendable {
    /// Created, or brought back from a tombstone (201).
    case created(DiaryEntry)
    /// Replaced, or left as it was because nothing changed (200).
    case replaced(DiaryEntry)
}
