/// The event log (`docs/events.md`): `event_log`, the events by topic and number, filled by the triggers of
/// `EventSource.all`; on PostgreSQL also `event_topics`, each topic's last number, the row its writers queue on.
enum EventMigrations {
    static var all: [SQLMigration] { [create] }

    /// PostgreSQL's notification channel: each committed event as `"<topic> <seq>"`.
    static let channel = "sprout_events"

    /// SQLite 3.40's `now` in seconds with a fraction (`unixepoch('subsec')` came in 3.42).
    static let sqliteNow = "((julianday('now') - 2440587.5) * 86400.0)"

    static let create = SQLMigration(
        "events.create",
        sqlite: [
            """
            CREATE TABLE event_log (
              topic TEXT NOT NULL, seq INTEGER NOT NULL, action TEXT NOT NULL, item TEXT NOT NULL, parent INTEGER,
              at REAL NOT NULL, PRIMARY KEY (topic, seq)) WITHOUT ROWID
            """,
        ] + EventSource.all.flatMap { $0.sqliteTriggers() },
        postgres: [
            "CREATE TABLE event_topics (topic TEXT PRIMARY KEY, last_seq BIGINT NOT NULL)",
            """
            CREATE TABLE event_log (
              topic TEXT NOT NULL, seq BIGINT NOT NULL, action TEXT NOT NULL, item TEXT NOT NULL, parent BIGINT,
              at TIMESTAMPTZ NOT NULL, PRIMARY KEY (topic, seq))
            """,
        ] + EventSource.all.flatMap { $0.postgresStatements() }
    )
}
