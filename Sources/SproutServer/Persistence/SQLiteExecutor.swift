import Foundation
import GRDB

/// `SQLExecutor` on SQLite in WAL mode: writes, slow reads and migrations through a GRDB `DatabasePool` (one
/// writer connection, a few readers, statements cached per connection), plain reads on each thread's own
/// connection (`SQLiteThreadReaders`).
struct SQLiteExecutor: SQLExecutor {
    let pool: DatabasePool
    let threadReaders: SQLiteThreadReaders
    let slowReads: ConcurrencyLimit
    let writes: SQLiteWriteBatcher
    let trigramCounts: TrigramDocumentCounts? = TrigramDocumentCounts()
    var dialect: SQLDialect { .sqlite }

    init(pool: DatabasePool, threadReaders: SQLiteThreadReaders, slowReads: ConcurrencyLimit, metrics: DatabaseMetrics? = nil) {
        self.pool = pool
        self.threadReaders = threadReaders
        self.slowReads = slowReads
        writes = SQLiteWriteBatcher(pool: pool, metrics: metrics)
    }

    /// Set on every connection, GRDB's and the thread readers' alike:
    /// - `busy_timeout`: a second process (`sprout migrate`, a backup) may hold the write lock for a moment: wait,
    ///   then fail (GRDB would give its readers 10 s);
    /// - `synchronous = NORMAL`: with WAL, durable at checkpoints and no integrity lost on power loss;
    /// - `cache_size` 1 MiB (SQLite's default is 2,000 KiB): pages missed come from the OS's file cache; five
    ///   connections at 2 MB each held the same pages several times over and pushed peak RSS under the benchmark
    ///   from 56 to 60 MiB;
    /// - `journal_size_limit` 64 MiB: the WAL grows for as long as a snapshot is held (a backup's copy of 1 GB under
    ///   1,000 writes/s left it at 216–415 MB, docs/benchmarks.md) or a transaction is large, and SQLite reuses the
    ///   file without shrinking it; with the limit, the first write after a complete checkpoint truncates it;
    /// - `foreign_keys`.
    static let connectionPragmas =
        "PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -1024; "
        + "PRAGMA journal_size_limit = \(walSizeLimit); PRAGMA foreign_keys = ON"

    /// The WAL's size once a checkpoint has passed (`journal_size_limit`).
    static let walSizeLimit = 64 << 20

    /// Opens (creating if needed) the database file, and the checkpointer that takes WAL checkpoints off the
    /// writer's commits (`SQLiteCheckpointer`). GRDB links the system's libsqlite3; nothing else in the process
    /// may open this file through another SQLite library (their POSIX locks would not see each other).
    static func open(path: String, readers: Int) throws -> (DatabasePool, SQLiteCheckpointer) {
        try PrivateDirectory.ensure(URL(fileURLWithPath: path).deletingLastPathComponent())
        var configuration = Configuration()
        configuration.maximumReaderCount = readers
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in try db.execute(sql: connectionPragmas) }
        let pool = try DatabasePool(path: path, configuration: configuration)
        let checkpointer = try SQLiteCheckpointer(path: path)
        // GRDB's pool has one writer connection for its lifetime.
        pool.writeWithoutTransaction { db in
            if let writer = db.sqliteConnection { checkpointer.attach(toWriter: writer) }
        }
        return (pool, checkpointer)
    }

    /// A plain read is a few microseconds of CPU on pages already in memory, so it runs right on the calling
    /// task's thread, on that thread's own connection, outside any explicit transaction (one SELECT is a snapshot
    /// on its own): no queue hop, no wait for a pooled connection, statements kept prepared. Measured in
    /// `SQLiteThreadReaders`.
    func read<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try threadReaders.read(statement)
    }

    /// Slow reads run on GRDB's reader queues, never on the calling thread, at most `slowReads` at once.
    func slowRead<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try await slowReads.run { try await pool.unsafeRead { db in try Self.fetch(statement, in: db) } }
    }

    /// One statement (with its triggers), committed with whatever other writes arrived meanwhile
    /// (`SQLiteWriteBatcher`); the caller hears of it once it is committed.
    func write<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try await writes.write { db in try Self.fetch(statement, in: db) }
    }

    /// In the group commit like `write`, the whole sequence in one savepoint.
    func writeSequence<Row: SQLRowDecodable>(_ statements: [SQLStatement], as type: Row.Type) async throws -> [Row] {
        guard let last = statements.last else { return [] }
        return try await writes.write { db in
            for statement in statements.dropLast() {
                try db.cachedStatement(sql: statement.sql).execute(arguments: Self.arguments(statement.binds))
            }
            return try Self.fetch(last, in: db)
        }
    }

    func writeAll(_ statements: [SQLStatement]) async throws {
        try await writeAll(statements, beforeCommit: {})
    }

    /// `beforeCommit` runs on GRDB's writer queue, a thread of its own that may block (never an event loop).
    func writeAll(_ statements: [SQLStatement], beforeCommit: @escaping @Sendable () throws -> Void) async throws {
        try await pool.write { db in
            for statement in statements {
                let prepared = try db.cachedStatement(sql: statement.sql)
                try prepared.execute(arguments: Self.arguments(statement.binds))
            }
            try beforeCommit()
        }
    }

    static func fetch<Row: SQLRowDecodable>(_ statement: SQLStatement, in db: Database) throws -> [Row] {
        let prepared = try db.cachedStatement(sql: statement.sql)
        let cursor = try GRDB.Row.fetchCursor(prepared, arguments: arguments(statement.binds))
        let columns = SQLColumnNames(prepared.columnNames)
        var rows: [Row] = []
        while let row = try cursor.next() {
            rows.append(try Row(row: SQLiteRow(row: row, columns: columns)))
        }
        return rows
    }

    /// `$1` is a named parameter to SQLite (named "1" once GRDB drops the `$`), so values are bound by name:
    /// a statement may use `$2` before `$1`, or `$1` twice.
    static func arguments(_ binds: [SQLValue]) -> StatementArguments {
        guard !binds.isEmpty else { return StatementArguments() }
        var named: [String: (any DatabaseValueConvertible)?] = [:]
        named.reserveCapacity(binds.count)
        for (offset, value) in binds.enumerated() {
            let databaseValue: DatabaseValue
            switch value {
            case .null: databaseValue = .null
            case .int(let int): databaseValue = int.databaseValue
            case .text(let text): databaseValue = text.databaseValue
            case .bool(let bool): databaseValue = bool.databaseValue
            case .date(let date): databaseValue = date.timeIntervalSince1970.databaseValue
            case .double(let double): databaseValue = double.databaseValue
            case .bytes(let bytes): databaseValue = Data(bytes).databaseValue
            }
            named[String(offset + 1)] = databaseValue
        }
        return StatementArguments(named)
    }
}

/// A GRDB row, read with GRDB's fast paths for SQLite's own column types.
struct SQLiteRow: SQLRow {
    let row: GRDB.Row
    let columns: SQLColumnNames

    func index(of name: String) throws -> Int { try columns.index(of: name) }

    func isNull(_ index: Int) -> Bool { row.hasNull(atIndex: index) }
    func int(_ index: Int) throws -> Int { try row.decode(Int.self, atIndex: index) }
    func string(_ index: Int) throws -> String { try row.decode(String.self, atIndex: index) }
    func bool(_ index: Int) throws -> Bool { try row.decode(Bool.self, atIndex: index) }
    func date(_ index: Int) throws -> Date {
        Date(timeIntervalSince1970: try row.decode(Double.self, atIndex: index))
    }
    func double(_ index: Int) throws -> Double { try row.decode(Double.self, atIndex: index) }
    func bytes(_ index: Int) throws -> [UInt8] { [UInt8](try row.decode(Data.self, atIndex: index)) }
}
