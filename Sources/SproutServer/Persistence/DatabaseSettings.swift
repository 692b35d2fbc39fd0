/// Which database Sprout keeps its data in.
public enum DatabaseSettings: Sendable, Equatable {
    /// The embedded default: one SQLite file.
    case sqlite(path: String)
    /// PostgreSQL; `schema`, when given, becomes the connection's `search_path` (tests use one schema each).
    case postgres(url: String, schema: String? = nil)
}
