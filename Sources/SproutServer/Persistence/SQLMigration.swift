/// One step of the schema, in plain SQL for each dialect. Steps run in the order of `SproutMigrations.all`,
/// each exactly once; `sprout_migrations` records which ran. Never edit a step that has shipped: add a new one.
public struct SQLMigration: Sendable {
    /// Stable and unique: it is what `sprout_migrations` records.
    public let name: String
    public let sqlite: [String]
    public let postgres: [String]

    public init(_ name: String, sqlite: [String], postgres: [String]) {
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
    }

    func statements(for dialect: SQLDialect) -> [String] {
        dialect == .sqlite ? sqlite : postgres
    }
}

enum SQLMigrationTable {
    static let create = """
        CREATE TABLE IF NOT EXISTS sprout_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)
        """
    static let applied = "SELECT name FROM sprout_migrations"
    static func record(_ name: String, at time: String) -> SQLStatement {
        "INSERT INTO sprout_migrations (name, applied_at) VALUES (\(bind: name), \(bind: time))"
    }
}
