/// The weather attached to an entry, and what `GET /api/weather` answers.
///
/// The contract's weather is `{"main", "icon"}`; `description` and `tempC` are optional extras, kept and answered
/// back only when they were sent (a nil one is left out of the JSON, not written as `null`).
public struct DiaryWeatherJSON: Codable, Sendable, Equatable, Hashable {
    /// OpenWeather's group: `Clear`, `Clouds`, `Rain`, …
    public var main: String
    /// OpenWeather's words for it, `few clouds`, when known.
    public var description: String?
    /// OpenWeather's icon code, `01d` … `50n` (`d` day, `n` night).
    public var icon: String
    /// Degrees Celsius, one decimal, when known.
    public var tempC: Double?

    /// Weather from its parts.
    public init(main: String, description: String? = nil, icon: String, tempC: Double? = nil) {
        self.main = main
        self.description = description
        self.icon = icon
        self.tempC = tempC
    }
}

/// A diary entry as the API shows it (`GET`, `PUT`, the list).
public struct DiaryEntryJSON: Codable, Sendable, Equatable {
    /// The client-made UUID, lowercase.
    public var id: String
    /// The first line of the text; never empty.
    public var title: String
    /// The rest of the text (may be empty).
    public var body: String
    /// When the entry was first written (`DiaryTimestamp`).
    public var createdAt: String
    /// When the server last changed it (`DiaryTimestamp`); strictly increasing per account.
    public var updatedAt: String
    /// `null` when the entry has none.
    public var weather: DiaryWeatherJSON?
    /// Always `false` here; tombstones appear only in `changes`.
    public var deleted: Bool

    /// An entry from its parts.
    public init(id: String, title: String, body: String, createdAt: String, updatedAt: String, weather: DiaryWeatherJSON?) {
        self.id = id
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.weather = weather
        deleted = false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(weather, forKey: .weather)  // an explicit null
        try container.encode(deleted, forKey: .deleted)
    }
}

/// The body of `PUT /api/diary/entries/{id}`.
public struct DiaryEntryWriteJSON: Codable, Sendable, Equatable {
    public var title: String
    public var body: String
    /// Omitted: now for a new entry, kept for a replaced one.
    public var createdAt: String?
    /// Omitted: none for a new entry, kept for a replaced one.
    public var weather: DiaryWeatherJSON?
    /// The `updatedAt` of the version this edit started from, when the client knows it. A replaced version that
    /// was not this one is kept as a `conflict` (never pruned).
    public var baseUpdatedAt: String?

    /// A write from its parts.
    public init(title: String, body: String, createdAt: String? = nil, weather: DiaryWeatherJSON? = nil, baseUpdatedAt: String? = nil) {
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.weather = weather
        self.baseUpdatedAt = baseUpdatedAt
    }
}

/// `GET /api/diary/entries?limit=&offset=`: a page, newest first by `createdAt`.
public struct DiaryPageJSON: Codable, Sendable, Equatable {
    public var entries: [DiaryEntryJSON]
    /// Live entries of the account in all.
    public var total: Int

    /// A page from its parts.
    public init(entries: [DiaryEntryJSON], total: Int) {
        self.entries = entries
        self.total = total
    }
}

/// One element of `changes`: a live entry (`deleted` false, every field) or a tombstone (`id`, `deleted` true,
/// `updatedAt` only).
public struct DiaryChangeJSON: Codable, Sendable, Equatable {
    public var id: String
    public var deleted: Bool
    public var updatedAt: String
    public var title: String?
    public var body: String?
    public var createdAt: String?
    public var weather: DiaryWeatherJSON?

    /// A live entry as a change.
    public init(entry: DiaryEntryJSON) {
        id = entry.id
        deleted = false
        updatedAt = entry.updatedAt
        title = entry.title
        body = entry.body
        createdAt = entry.createdAt
        weather = entry.weather
    }

    /// A tombstone.
    public init(tombstoneID id: String, updatedAt: String) {
        self.id = id
        deleted = true
        self.updatedAt = updatedAt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        if !deleted {
            try container.encode(title ?? "", forKey: .title)
            try container.encode(body ?? "", forKey: .body)
            try container.encode(createdAt ?? updatedAt, forKey: .createdAt)
            try container.encode(weather, forKey: .weather)
        }
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(deleted, forKey: .deleted)
    }
}

/// `GET /api/diary/entries?since=`: what changed strictly after `since`, oldest change first.
public struct DiaryChangesJSON: Codable, Sendable, Equatable {
    public var changes: [DiaryChangeJSON]
    /// Pass this back as the next `since`. Every write committed after this answer gets a later `updatedAt`.
    public var now: String
    /// More changes wait: ask again at once with `since = now`.
    public var hasMore: Bool

    /// Changes from their parts.
    public init(changes: [DiaryChangeJSON], now: String, hasMore: Bool) {
        self.changes = changes
        self.now = now
        self.hasMore = hasMore
    }
}

/// The tombstone `DELETE` answers with.
public struct DiaryTombstoneJSON: Codable, Sendable, Equatable {
    public var id: String
    public var deleted: Bool
    public var updatedAt: String

    /// A tombstone from its parts.
    public init(id: String, updatedAt: String) {
        self.id = id
        deleted = true
        self.updatedAt = updatedAt
    }
}

/// A version an entry had before a write or a deletion replaced it.
public struct DiaryVersionJSON: Codable, Sendable, Equatable {
    public var title: String
    public var body: String
    public var createdAt: String
    public var weather: DiaryWeatherJSON?
    /// The version's own `updatedAt`.
    public var updatedAt: String
    /// When it was replaced: the `updatedAt` of what replaced it.
    public var replacedAt: String
    /// `replaced` (by an edit made from this version), `conflict` (by a write that had not seen it) or `deleted`.
    public var reason: String

    /// A version from its parts.
    public init(title: String, body: String, createdAt: String, weather: DiaryWeatherJSON?, updatedAt: String, replacedAt: String, reason: String) {
        self.title = title
        self.body = body
        self.createdAt = createdAt
        self.weather = weather
        self.updatedAt = updatedAt
        self.replacedAt = replacedAt
        self.reason = reason
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(body, forKey: .body)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(weather, forKey: .weather)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(replacedAt, forKey: .replacedAt)
        try container.encode(reason, forKey: .reason)
    }
}

/// `GET /api/diary/entries/{id}/versions`: newest first.
public struct DiaryVersionsJSON: Codable, Sendable, Equatable {
    public var versions: [DiaryVersionJSON]

    /// Versions from their parts.
    public init(versions: [DiaryVersionJSON]) {
        self.versions = versions
    }
}

/// Every Diary and weather error: `{"message": "…"}`.
public struct DiaryErrorJSON: Codable, Sendable, Equatable {
    public var message: String

    /// An error body.
    public init(message: String) {
        self.message = message
    }
}
