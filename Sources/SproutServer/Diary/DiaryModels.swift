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

    /// Four columns from `start` (main, description, icon, °C); no weather when `main` is null.
    static func columns(of row: some SQLRow, from start: Int) throws -> DiaryWeather? {
        guard !row.isNull(start) else { return nil }
        return DiaryWeather(
            main: try row.string(start),
            description: row.isNull(start + 1) ? nil : try row.string(start + 1),
            icon: try row.string(start + 2),
            tempC: row.isNull(start + 3) ? nil : try row.double(start + 3)
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
        id = try row.string(0)
        content = DiaryContent(
            title: try row.string(1), body: try row.string(2), createdMilliseconds: try row.int(3),
            weather: try DiaryWeather.columns(of: row, from: 5)
        )
        updatedMilliseconds = try row.int(4)
        deleted = try row.bool(9)
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
            title: try row.string(0), body: try row.string(1), createdMilliseconds: try row.int(2),
            weather: try DiaryWeather.columns(of: row, from: 4)
        )
        updatedMilliseconds = try row.int(3)
        replacedMilliseconds = try row.int(8)
        reason = try row.string(9)
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
