import Foundation
import Logging
import NIOPosix
import PostgresNIO

/// `SQLExecutor` over postgres-nio's `PostgresClient` (its own connection pool). A read runs on its own
/// (autocommit): one round trip, no BEGIN/COMMIT; a single-statement write too when it comes alone, else it shares
/// a transaction with the writes beside it (`PostgresWriteBatcher`). Statements marked `prepared()` run on other pools (one per event
/// loop, `PostgresLoopPools`) whose sessions keep one generic plan per prepared statement
/// (`plan_cache_mode = force_generic_plan`): PostgreSQL would otherwise plan them anew on every call, as it does
/// every other statement (whose plans may depend on the values: a search pattern, say). Through a transaction
/// pooler there are no such pools (`preparedPools` nil): a named statement lives in one server session, which
/// the next transaction may not get, so those statements run as all others do.
struct PostgresExecutor: SQLExecutor {
    let client: PostgresClient
    let preparedPools: PostgresLoopPools?
    /// Pools per event loop for plain reads and lone writes that are not kept prepared (nil: `client` runs them).
    let plainPools: PostgresLoopPools?
    let slowReads: ConcurrencyLimit
    let statistics: PlannerStatistics
    let writes: PostgresWriteBatcher
    let lookups: KeyedLookupQueues
    var dialect: SQLDialect { .postgres }

    /// `batchClient`: the pool the group commit's transactions run on (`PostgresWriteBatcher.loop`'s), else `client`.
    init(
        client: PostgresClient, batchClient: PostgresClient? = nil, preparedPools: PostgresLoopPools?, plainPools: PostgresLoopPools? = nil,
        metrics: DatabaseMetrics? = nil, slowReads: ConcurrencyLimit, logger: Logger
    ) {
        self.client = client
        self.plainPools = plainPools
        writes = PostgresWriteBatcher(client: batchClient ?? client, keepsStatementsPrepared: preparedPools != nil, metrics: metrics)
        self.preparedPools = preparedPools
        lookups = KeyedLookupQueues(loops: preparedPools?.loops ?? plainPools?.loops ?? [])
        self.slowReads = slowReads
        statistics = PlannerStatistics(logger: logger) { table in
            try await client.withConnection { connection in
                for try await _ in try await connection.query(PostgresQuery(unsafeSQL: "ANALYZE \(table)"), logger: Self.silent) {}
            }
        }
    }

    func noteGrowth(of table: String, by rows: Int) {
        statistics.noteGrowth(of: table, by: rows)
    }

    func read<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try await fetchAgainIfTheSessionEnded(statement, on: plainPools?.current ?? client)
    }

    /// Lookups of one kind on one event loop share statements while one is on its way (`KeyedLookup`).
    func readKeyed<Row>(_ key: Int, by lookup: KeyedLookup<Row>) async throws -> Row? {
        try await lookups.queue(for: lookup).row(key, by: lookup) { statement in try await read(statement, as: Row.self) }
    }

    /// On the shared pool, so that searches never hold every connection of a loop's pool.
    func slowRead<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try await slowReads.run { try await fetchAgainIfTheSessionEnded(statement, on: client) }
    }

    /// A read that met a connection whose session had ended is read again on another, twice at most: the pool hands
    /// out such a connection until it hears of its end (after PostgreSQL restarts, each pooled one once), and a
    /// read changes nothing, so running it again is safe. (A write is not run again: it may have committed.)
    private func fetchAgainIfTheSessionEnded<Row: SQLRowDecodable>(_ statement: SQLStatement, on pool: PostgresClient) async throws -> [Row] {
        var againsLeft = 2
        while true {
            do {
                return try await fetch(statement, on: pool)
            } catch where againsLeft > 0 && PostgresTransaction.endedTheSession(error) {
                againsLeft -= 1
            }
        }
    }

    /// Concurrent single-statement writes share transactions (`PostgresWriteBatcher`).
    func write<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try await writes.write(statement, as: Row.self) { try await fetch(statement, on: plainPools?.current ?? client) }
    }

    func writeAll(_ statements: [SQLStatement]) async throws {
        try await PostgresTransaction.run(on: client) { connection in
            try await Self.drain(statements, on: connection)
        }
    }

    /// `beforeCommit` runs on NIO's thread pool while the transaction is open.
    func writeAll(_ statements: [SQLStatement], beforeCommit: @escaping @Sendable () throws -> Void) async throws {
        try await PostgresTransaction.run(on: client) { connection in
            try await Self.drain(statements, on: connection)
            try await NIOThreadPool.singleton.runIfActive { try beforeCommit() }
        }
    }

    private static func drain(_ statements: [SQLStatement], on connection: PostgresConnection) async throws {
        for statement in statements {
            try connection.checkOpen()
            // Drained, so a failing statement throws here rather than as the next one's "transaction aborted".
            for try await _ in try await connection.query(query(statement), logger: silent) {}
        }
    }

    /// In the group commit like `write`, the whole sequence together (`PostgresWriteBatcher`).
    func writeSequence<Row: SQLRowDecodable>(_ statements: [SQLStatement], as type: Row.Type) async throws -> [Row] {
        try await writes.write(statements, as: Row.self) { try await writeSequenceAlone(statements, as: Row.self) }
    }

    private func writeSequenceAlone<Row: SQLRowDecodable>(_ statements: [SQLStatement], as type: Row.Type) async throws -> [Row] {
        guard let last = statements.last else { return [] }
        return try await PostgresTransaction.run(on: client) { connection in
            for statement in statements.dropLast() {
                for try await _ in try await connection.query(Self.query(statement), logger: Self.silent) {}
            }
            return try await Self.rows(try await connection.query(Self.query(last), logger: Self.silent), on: connection.eventLoop)
        }
    }

    /// Each statement on a connection leased for exactly as long as its rows are read. Not `client.query` or
    /// `client.execute`: in postgres-nio 1.33 they give the connection back only when the rows' stream finishes
    /// after the caller starts reading it, so a statement that failed while executing before that (a division by
    /// zero, a unique violation) kept its connection leased for good; a pool of one then hung on the next call.
    /// `pool`: where a statement not kept prepared runs.
    private func fetch<Row: SQLRowDecodable>(_ statement: SQLStatement, on pool: PostgresClient) async throws -> [Row] {
        if statement.isPrepared, let preparedPools { return try await fetchPrepared(statement, on: preparedPools) }
        return try await pool.withOpenConnection { connection in
            try await Self.rows(try await connection.query(Self.query(statement), logger: Self.silent), on: connection.eventLoop)
        }
    }

    private func fetchPrepared<Row: SQLRowDecodable>(_ statement: SQLStatement, on preparedPools: PostgresLoopPools) async throws -> [Row] {
        try await preparedPools.current.withOpenConnection { connection in
            try await Self.preparedRows(statement, on: connection)
        }
    }

    /// `statement` as a named prepared statement on `connection` (prepared there the first time it runs there).
    static func preparedRows<Row: SQLRowDecodable>(_ statement: SQLStatement, on connection: PostgresConnection) async throws -> [Row] {
        let prepared = PostgresPreparedSQL(statement)
        return try await PostgresPreparedSQL.$current.withValue(prepared.text) {
            try await rows(try await connection.execute(prepared, logger: silent), on: connection.eventLoop)
        }
    }

    /// The rows are read isolated to the connection's event loop, where postgres-nio delivers them. A
    /// nonisolated loop asked NIO's takeover executor for a round trip through the loop's queue at every step
    /// of every row (`swift_task_switch` to the generic executor, ~6 per row): a PostgreSQL list page of 20 rows
    /// made 379 round trips per request, 255 this way; alternating the two on one database, list 4,236–4,373 →
    /// 4,508–4,570 req/s.
    static func rows<Row: SQLRowDecodable>(
        _ sequence: sending some AsyncSequence<PostgresRow, any Error>, on loop: any EventLoop
    ) async throws -> [Row] {
        try await readRows(sequence, isolation: EventLoopIsolation(loop))
    }

    private static func readRows<Row: SQLRowDecodable>(
        _ sequence: sending some AsyncSequence<PostgresRow, any Error>, isolation: isolated EventLoopIsolation
    ) async throws -> [Row] {
        var rows: [Row] = []
        var columns: SQLColumnNames?
        for try await row in sequence {
            let cells = row.makeRandomAccess()
            let names = columns ?? SQLColumnNames(cells.map(\.columnName))
            columns = names
            rows.append(try Row(row: PostgresSQLRow(row: cells, columns: names)))
        }
        return rows
    }

    static func query(_ statement: SQLStatement) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: statement.binds.count)
        for value in statement.binds {
            switch value {
            // Untyped null: the server infers its type from where the placeholder stands.
            case .null: bindings.appendNull()
            case .int(let int): bindings.append(int)
            case .text(let text): bindings.append(text)
            case .bool(let bool): bindings.append(bool)
            case .date(let date): bindings.append(date)
            case .double(let double): bindings.append(double)
            case .bytes(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            }
        }
        return PostgresQuery(unsafeSQL: statement.sql, binds: bindings)
    }

    static let silent = Logger(label: "sprout.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// A postgres-nio row.
struct PostgresSQLRow: SQLRow {
    let row: PostgresRandomAccessRow
    let columns: SQLColumnNames

    func index(of name: String) throws -> Int { try columns.index(of: name) }

    func isNull(_ index: Int) -> Bool { row[index].bytes == nil }
    func int(_ index: Int) throws -> Int { try row[index].decode(Int.self) }
    func string(_ index: Int) throws -> String { try row[index].decode(String.self) }
    func bool(_ index: Int) throws -> Bool { try row[index].decode(Bool.self) }
    func date(_ index: Int) throws -> Date { try row[index].decode(Date.self) }
    func double(_ index: Int) throws -> Double { try row[index].decode(Double.self) }
    func bytes(_ index: Int) throws -> [UInt8] { Array((try row[index].decode(ByteBuffer.self)).readableBytesView) }
}

extension PostgresClient.Configuration {
    /// `postgres://user:password@host:port/database?sslmode=…`, read as libpq reads it: `sslmode=disable` turns TLS
    /// off, `require` insists on it, anything else (or nothing) uses it when the server offers it.
    /// `keepsGenericPlans`: the sessions plan a prepared statement once and reuse that plan for any values.
    /// A nil `schema` and `statementTimeout` send no setting at connect (a transaction pooler refuses them).
    static func sprout(
        url: String, schema: String?, maximumConnections: Int, statementTimeout: Duration?, keepsGenericPlans: Bool = false
    ) throws -> Self {
        guard let components = URLComponents(string: url),
              components.scheme == "postgres" || components.scheme == "postgresql",
              let host = components.host, !host.isEmpty
        else { throw ConfigurationError("DATABASE_URL is not a postgres:// URL") }
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "prefer"
        let tls: TLS
        switch sslMode {
        case "disable": tls = .disable
        case "require", "verify-ca", "verify-full": tls = .require(.makeClientConfiguration())
        default: tls = .prefer(.makeClientConfiguration())
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: components.user?.removingPercentEncoding ?? "postgres",
            password: components.password?.removingPercentEncoding,
            database: database.isEmpty ? nil : database.removingPercentEncoding,
            tls: tls
        )
        configuration.options.maximumConnections = maximumConnections
        var parameters: [(String, String)] = []
        if let statementTimeout {
            // A runaway statement is stopped by the server, so it cannot hold a pooled connection for long.
            parameters.append(("statement_timeout", String(statementTimeout.components.seconds * 1000)))
        }
        if let schema { parameters.append(("search_path", schema)) }
        if keepsGenericPlans { parameters.append(("plan_cache_mode", "force_generic_plan")) }
        configuration.options.additionalStartupParameters = parameters
        return configuration
    }
}

/// An actor whose executor is one event loop: code isolated to it runs on that loop's thread and continues
/// there without a hop per async call.
actor EventLoopIsolation {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }
}
