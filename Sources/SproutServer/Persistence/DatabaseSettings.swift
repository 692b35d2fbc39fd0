/// Which database Sprout keeps its data in.
public enum DatabaseSettings: Sendable, Equatable {
    /// The embedded default: one SQLite file.
    case sqlite(path: String)
    /// PostgreSQL; `schema`, when given, becomes the connection's `search_path` (tests use one schema each).
    /// `pooler`, when given, says `url` names a transaction-mode pooler in front of PostgreSQL.
    case postgres(url: String, schema: String? = nil, pooler: TransactionPooler? = nil)

    /// Where work that needs a session of its own connects: migrations, the event hub's `LISTEN`, backups and
    /// restores. PostgreSQL itself when a pooler stands in front of it; else the one URL. Nil for SQLite.
    var sessionURL: String? {
        guard case .postgres(let url, _, let pooler) = self else { return nil }
        return pooler?.directURL ?? url
    }
}

/// PostgreSQL reached through a pooler in transaction mode (PgBouncer's `pool_mode = transaction`): each
/// transaction may run on another server connection, so nothing may rely on a session. Sprout then prepares no
/// named statements and sends no session settings when it connects through the pooler: the schema
/// (`search_path`) and `statement_timeout` must be the role's defaults (`ALTER ROLE … SET …`), which Sprout checks
/// at start. `LISTEN`, migrations and backups need a session and use `directURL`. See docs/scaling.md.
public struct TransactionPooler: Sendable, Equatable {
    /// PostgreSQL itself, not the pooler.
    public var directURL: String

    public init(directURL: String) {
        self.directURL = directURL
    }
}
