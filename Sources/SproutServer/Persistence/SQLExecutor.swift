/// The seam every repository is written against: run one statement and decode its rows. Two implementations,
/// `SQLiteExecutor` (GRDB) and `PostgresExecutor` (postgres-nio). Each call is one statement, atomic on its own
/// (triggers included), which is all the todos need; `writeSequence` runs several in one transaction where a
/// later statement depends on an earlier one (the Diary's clock).
public protocol SQLExecutor: Sendable {
    var dialect: SQLDialect { get }
    /// A read. On SQLite it runs on the calling thread's own connection (`SQLiteThreadReaders`), beside the
    /// writer, never waiting for writes.
    func read<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row]
    /// A read that may be slow whatever the index (a substring search can be crafted to be): only a few run at
    /// once, so the other connections stay free for plain reads.
    func slowRead<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row]
    /// A write (INSERT/UPDATE/DELETE, usually with `RETURNING`). On SQLite writes are serialised on one connection.
    func write<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row]
    /// Several writes in one transaction, all or nothing (bulk seeding, maintenance).
    func writeAll(_ statements: [SQLStatement]) async throws
    /// `writeAll`, then `beforeCommit` inside the same transaction, after the last statement and before COMMIT; it
    /// runs on a thread that may block (file work), and when it throws the transaction is rolled back. For work
    /// outside the database that must be done before a committed row can refer to it (an upload's files).
    func writeAll(_ statements: [SQLStatement], beforeCommit: @escaping @Sendable () throws -> Void) async throws
    /// Several statements in one transaction, in order, all or nothing; answers the last one's rows. On
    /// PostgreSQL each statement sees what committed before it started (READ COMMITTED), so a row locked by an
    /// earlier statement orders this transaction after every other that locked it first.
    func writeSequence<Row: SQLRowDecodable>(_ statements: [SQLStatement], as type: Row.Type) async throws -> [Row]
    /// The row with `key`, by `lookup`: on PostgreSQL, lookups of one kind asked at the same time share statements
    /// (`KeyedLookup`); elsewhere it is `lookup.one(key)`, read as `read` reads.
    func readKeyed<Row>(_ key: Int, by lookup: KeyedLookup<Row>) async throws -> Row?
    /// Tells the executor that `rows` rows were added to `table` (see `PlannerStatistics`).
    func noteGrowth(of table: String, by rows: Int)
    /// SQLite only: how many rows hold each trigram of its search indexes, as last counted (`SubstringSearchIndex`).
    var trigramCounts: TrigramDocumentCounts? { get }
}

extension SQLExecutor {
    /// SQLite's planner keeps no statistics that fall behind: nothing to do.
    func noteGrowth(of table: String, by rows: Int) {}

    /// PostgreSQL reads a LIKE through pg_trgm's index itself: nothing to count.
    var trigramCounts: TrigramDocumentCounts? { nil }

    func readKeyed<Row>(_ key: Int, by lookup: KeyedLookup<Row>) async throws -> Row? {
        try await read(lookup.one(key).prepared(), as: Row.self).first
    }

    func readFirst<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> Row? {
        try await read(statement, as: type).first
    }

    func writeFirst<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> Row? {
        try await write(statement, as: type).first
    }
}
