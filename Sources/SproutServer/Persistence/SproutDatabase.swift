import Foundation
import GRDB
import Logging
import NIOPosix
import PostgresNIO
import ServiceLifecycle
import Synchronization
import SproutWire

/// Owns the database connections: a GRDB `DatabasePool` for SQLite, or a `PostgresClient` (its pool). It is one of
/// the application's services: started with it, and closed only after the HTTP server has drained.
public final class SproutDatabase: Service, Sendable {
    public let settings: DatabaseSettings
    /// What repositories run their SQL on.
    public let executor: any SQLExecutor
    let migrations: [SQLMigration]
    let logger: Logger
    private let connections: Connections
    /// The process's event hub: the streams of `GET /api/events` subscribe here.
    let events: EventHub
    /// The `SELECT 1` of `ping` still awaiting its answer, if any.
    private let pingProbe = Mutex<Task<Bool, Never>?>(nil)

    private enum Connections: Sendable {
        /// GRDB's pool for writes, slow reads and migrations; each thread's own connection for plain reads; the
        /// writer's checkpoints.
        case sqlite(DatabasePool, SQLiteThreadReaders, SQLiteCheckpointer)
        /// The shared pool (transactions, slow reads, migrations); the group commit's (`batches`,
        /// `PostgresWriteBatcher`); per event loop, those for statements kept prepared (`SQLStatement.prepared()`)
        /// and for plain reads (none of either through a transaction pooler). `listening`: one connection of its
        /// own, for the event hub's `LISTEN` (`PostgresEventListener`), to PostgreSQL itself.
        case postgres(PostgresClient, batches: PostgresClient, prepared: PostgresLoopPools?, plain: PostgresLoopPools?, listening: PostgresClient)

        var postgresClients: [PostgresClient] {
            guard case .postgres(let client, let batches, let prepared, let plain, let listening) = self else { return [] }
            return [client, batches, listening] + (prepared?.clients ?? []) + (plain?.clients ?? [])
        }
    }

    /// GRDB's SQLite reader connections, which only slow reads (searches) use, at most this many at once. Plain
    /// reads run on each thread's own connection (`SQLiteThreadReaders`), so no search can make them wait; none
    /// waits for the writer (WAL).
    static let sqliteReaders = 2
    /// PostgreSQL connections per process: each is a server process, so a few are enough for 2 cores; slow reads
    /// may hold at most half of them, and the statement timeout stops a runaway query from keeping one.
    static let postgresConnections = 12
    /// Connections for the statements kept prepared (the hot lookups and list pages; each is one short statement),
    /// shared out over the event loops (at least 2 on each).
    static let postgresPreparedConnections = 8
    /// Connections for plain reads not kept prepared, shared out over the event loops like the prepared ones, so a
    /// handler's rows come back on its own thread.
    static let postgresPlainConnections = 6
    static let postgresStatementTimeout: Duration = .seconds(10)

    /// `metrics` on: every statement is timed (`MeasuredExecutor`), and the waits for the writer and for slow-read
    /// connections are recorded.
    public init(settings: DatabaseSettings, migrations: [SQLMigration], logger: Logger, metrics: SproutMetrics = .off) throws {
        self.settings = settings
        self.migrations = migrations
        self.logger = logger
        let measured = metrics.isOn ? metrics.database : nil
        let slowReadWaits: @Sendable (ContinuousClock.Instant) -> Void = { measured?.recordWait(.slowReads, since: $0) }
        let executor: any SQLExecutor
        switch settings {
        case .sqlite(let path):
            let (pool, checkpointer) = try SQLiteExecutor.open(path: path, readers: Self.sqliteReaders)
            let threadReaders = SQLiteThreadReaders(path: pool.path)
            connections = .sqlite(pool, threadReaders, checkpointer)
            executor = SQLiteExecutor(
                pool: pool, threadReaders: threadReaders, slowReads: ConcurrencyLimit(Self.sqliteReaders, onWait: slowReadWaits), metrics: measured
            )
        case .postgres(let url, let schema, let pooler):
            // Through a transaction pooler a connection is no session: no settings at connect (PgBouncer refuses
            // them; the role's defaults stand in) and no named prepared statements.
            let configuration = try PostgresClient.Configuration.sprout(
                url: url,
                schema: pooler == nil ? schema : nil,
                maximumConnections: Self.postgresConnections,
                statementTimeout: pooler == nil ? Self.postgresStatementTimeout : nil
            )
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            var batchConfiguration = configuration
            batchConfiguration.options.maximumConnections = PostgresWriteBatcher.connections
            let batches = PostgresClient(configuration: batchConfiguration, eventLoopGroup: PostgresWriteBatcher.loop, backgroundLogger: logger)
            var prepared: PostgresLoopPools?
            var plain: PostgresLoopPools?
            if pooler == nil {
                let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
                var plainConfiguration = configuration
                plainConfiguration.options.maximumConnections = max(2, Self.postgresPlainConnections / loops.count)
                plain = PostgresLoopPools(configuration: plainConfiguration, loops: loops, logger: logger)
                let preparedConfiguration = try PostgresClient.Configuration.sprout(
                    url: url,
                    schema: schema,
                    maximumConnections: max(2, Self.postgresPreparedConnections / loops.count),
                    statementTimeout: Self.postgresStatementTimeout,
                    keepsGenericPlans: true
                )
                prepared = PostgresLoopPools(configuration: preparedConfiguration, loops: loops, logger: logger)
            }
            let listening = PostgresClient(
                configuration: try PostgresClient.Configuration.sprout(
                    url: pooler?.directURL ?? url, schema: schema, maximumConnections: 1, statementTimeout: Self.postgresStatementTimeout
                ),
                backgroundLogger: logger
            )
            connections = .postgres(client, batches: batches, prepared: prepared, plain: plain, listening: listening)
            executor = PostgresExecutor(
                client: client, batchClient: batches, preparedPools: prepared, plainPools: plain, metrics: measured,
                slowReads: ConcurrencyLimit(Self.postgresConnections / 2, onWait: slowReadWaits), logger: logger
            )
        }
        self.executor = measured.map { MeasuredExecutor(base: executor, metrics: $0) } ?? executor
        let connections = self.connections
        events = EventHub(log: EventLog(executor: self.executor), logger: logger) { hub in
            switch connections {
            case .sqlite(let pool, _, let checkpointer):
                return try await SQLiteEventSignals.start(pool: pool, checkpointer: checkpointer, hub: hub)
            case .postgres(_, _, _, _, let listening):
                return [PostgresEventListener.start(client: listening, hub: hub, logger: logger)]
            }
        }
    }

    /// Brings the schema up to date. Safe beside a running server and from several processes at once: on SQLite
    /// one IMMEDIATE transaction holds the write lock while it checks and applies; on PostgreSQL one transaction
    /// holds Sprout's advisory lock.
    public func migrate() async throws {
        let migrations = self.migrations
        // Not ISO8601DateFormatter: it loads ICU's calendar data, 3 MB of resident memory for this one string.
        let now = UTCTimestamp.string(from: Date(), fractionDigits: 0)
        switch connections {
        case .sqlite(let pool, _, _):
            try await pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try db.execute(sql: SQLMigrationTable.create)
                    let applied = Set(try String.fetchAll(db, sql: SQLMigrationTable.applied))
                    for migration in migrations where !applied.contains(migration.name) {
                        for sql in migration.sqlite { try db.execute(sql: sql) }
                        let record = SQLMigrationTable.record(migration.name, at: now)
                        try db.execute(sql: record.sql, arguments: SQLiteExecutor.arguments(record.binds))
                    }
                    return .commit
                }
            }
        case .postgres(let client, _, _, _, _):
            guard case .postgres(_, let schema, let pooler?) = settings else {
                _ = try await Self.migratePostgres(migrations, at: now, on: client, logger: logger)
                try await warnOfCLocale()
                return
            }
            // Through a pooler, migrations run on PostgreSQL itself (a session of their own), and the pooled
            // connections must then see the same schema.
            let direct = PostgresClient(
                configuration: try .sprout(url: pooler.directURL, schema: schema, maximumConnections: 1, statementTimeout: Self.postgresStatementTimeout),
                backgroundLogger: logger
            )
            let logger = logger
            let migratedSchema = try await PostgresPoolsRun.whileRunning([direct], logger: logger) {
                try await Self.migratePostgres(migrations, at: now, on: direct, logger: logger)
            }
            try await checkPooledSessions(expectingSchema: migratedSchema)
            try await warnOfCLocale()
        }
    }

    /// Applies the migrations not yet applied, in one transaction under Sprout's advisory lock; returns the
    /// schema they went to.
    private static func migratePostgres(_ migrations: [SQLMigration], at now: String, on client: PostgresClient, logger: Logger) async throws -> String {
        try await PostgresTransaction.run(on: client) { connection in
            // Each statement's rows are drained, so an error is thrown by the statement that caused it
            // (an undrained one surfaces later as "current transaction is aborted").
            func run(_ query: PostgresQuery) async throws {
                for try await _ in try await connection.query(query, logger: PostgresExecutor.silent) {}
            }
            // Waiting for another process's migrations (or, in the tests, dozens of schemas migrating at
            // once) is not a runaway statement: the pool's statement_timeout does not apply here.
            try await run("SET LOCAL statement_timeout = 0")
            // A client that stops talking mid-migration (a process frozen or starved) must not hold the lock
            // for good: the server ends such a session, which rolls the migration back and frees the lock.
            try await run("SET LOCAL idle_in_transaction_session_timeout = '2min'")
            // One lock for the whole database, not one per schema: pg_trgm, which the migrations create, is the
            // database's, and the suite's hundreds of test schemas migrating at once would overload PostgreSQL.
            try await run("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))")
            try await run(PostgresQuery(unsafeSQL: SQLMigrationTable.create))
            var applied: Set<String> = []
            for try await name in try await connection.query(PostgresQuery(unsafeSQL: SQLMigrationTable.applied), logger: PostgresExecutor.silent).decode(String.self) {
                applied.insert(name)
            }
            for migration in migrations where !applied.contains(migration.name) {
                for sql in migration.postgres {
                    try await run(PostgresQuery(unsafeSQL: sql))
                }
                let record = SQLMigrationTable.record(migration.name, at: now)
                try await run(PostgresExecutor.query(record))
            }
            for try await schema in try await connection.query("SELECT current_schema()::text", logger: PostgresExecutor.silent).decode(String.self) {
                return schema
            }
            return "public"
        }
    }

    /// Through a transaction pooler, Sprout sends no settings when it connects, so the role's defaults must give
    /// the pooled connections the schema the migrations went to (else every query would miss its tables) and a
    /// statement timeout (else a runaway query holds a server connection that every node shares).
    private func checkPooledSessions(expectingSchema schema: String) async throws {
        let row = try await executor.readFirst(
            "SELECT current_schema()::text AS value, current_setting('statement_timeout') AS timeout", as: PooledSession.self
        )
        guard let row, row.schema == schema else {
            throw ConfigurationError(
                "through the pooler (DATABASE_URL) the schema is \(row?.schema ?? "none") but PostgreSQL itself (DATABASE_DIRECT_URL) has \(schema); "
                    + "give the role the schema as its default: ALTER ROLE <role> SET search_path = \(schema)"
            )
        }
        if row.statementTimeout == "0" {
            logger.warning("no statement_timeout through the pooler: a runaway query could hold a shared server connection; set one for the role: ALTER ROLE <role> SET statement_timeout = '10s'")
        }
    }

    private struct PooledSession: SQLRowDecodable {
        let schema: String?
        let statementTimeout: String

        init(row: some SQLRow) throws {
            schema = row.isNull(0) ? nil : try row.string(0)
            statementTimeout = try row.string(1)
        }
    }

    private func warnOfCLocale() async throws {
        // pg_trgm takes letters from the database's ctype: under plain C it sees Hangul as punctuation, so
        // Korean searches stay right but scan the whole index.
        let ctype = try await executor.readFirst("SELECT current_setting('lc_ctype')", as: SQLTextValue.self)?.value
        if let ctype, ["C", "POSIX"].contains(ctype) {
            logger.warning("PostgreSQL database has lc_ctype \(ctype): searches in Korean cannot use the trigram index; create the database with a UTF-8 locale such as C.UTF-8")
        }
    }

    /// Waits until the database answers, then migrates. While it does not (PostgreSQL still starting, a wrong
    /// address), a warning says so every few seconds; the wait ends at once when the task is cancelled, so a
    /// SIGTERM stops a server that never got its database.
    public func migrateWhenReachable(checkEvery interval: Duration = .seconds(5)) async throws {
        var attempts = 0
        while let failure = await reachabilityFailure(within: interval) {
            try Task.checkCancellation()
            attempts += 1
            logger.warning("database not reachable yet; still trying (SIGTERM or Ctrl-C stops)", metadata: [
                "database": "\(settings.redacted)", "attempts": "\(attempts)", "reason": "\(failure)",
            ])
            try await Task.sleep(for: .seconds(1))
        }
        try Task.checkCancellation()
        try await migrate()
    }

    /// Nil when `SELECT 1` answers within `limit`; else why not.
    private func reachabilityFailure(within limit: Duration) async -> String? {
        let executor = executor
        return await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    return try await executor.readFirst("SELECT 1", as: SQLInt.self)?.value == 1 ? nil : "no answer"
                } catch {
                    return Task.isCancelled ? "cancelled" : "\(String(describing: error).prefix(300))"
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return "no answer within \(limit)"
            }
            let first = await group.next() ?? "no answer"
            group.cancelAll()
            return first
        }
    }

    /// Answers whether the database answers a query within `limit`, for `/ready`: a `SELECT 1` on a reader
    /// connection (SQLite) or a pooled connection (PostgreSQL), so a probe measures what requests would meet.
    /// A load balancer needs its answer in time (Kubernetes waits 1 s by default): while PostgreSQL stopped, a `SELECT 1` waited in PgBouncer's queue
    /// and `/ready` hung for seconds instead of saying 503 (scripts/chaos, fault b). A query cannot be called
    /// back once sent, so an unanswered one is left to finish, and later probes wait on that same one (at most one
    /// is ever outstanding) instead of queueing more behind it.
    public func ping(within limit: Duration = .seconds(1)) async -> Bool {
        let probe = pingProbe.withLock { current -> Task<Bool, Never> in
            if let current { return current }
            let task = Task<Bool, Never> { [self] in
                defer { pingProbe.withLock { $0 = nil } }
                do {
                    return try await executor.readFirst("SELECT 1", as: SQLInt.self)?.value == 1
                } catch {
                    logger.warning("database ping failed", metadata: ["error": "\(String(reflecting: error))"])
                    return false
                }
            }
            current = task
            return task
        }
        return await Self.first(of: probe, orFalseAfter: limit)
    }

    /// The probe's answer, or false once `limit` has passed without one (the probe goes on).
    private static func first(of probe: Task<Bool, Never>, orFalseAfter limit: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = AnswerOnce(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                answer(false)
            }
            Task {
                answer(await probe.value)
                timer.cancel()  // a thousand probes answered at once leave no thousand sleepers behind
            }
        }
    }

    /// Resumes a continuation with the first value it is given, and ignores the rest.
    private final class AnswerOnce: Sendable {
        private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

        init(_ continuation: CheckedContinuation<Bool, Never>) {
            self.continuation = Mutex(continuation)
        }

        func callAsFunction(_ value: Bool) {
            continuation.withLock { waiting in
                defer { waiting = nil }
                return waiting
            }?.resume(returning: value)
        }
    }

    public func run() async throws {
        switch connections {
        case .sqlite:
            // Stay up for as long as the application runs; the services after us (the server) stop first.
            try? await gracefulShutdown()
        case .postgres:
            // Returns at graceful shutdown, which reaches this service after the server has drained.
            await PostgresPoolsRun.run(connections.postgresClients, logger: logger)
        }
        await shutdown()
    }

    /// Closes SQLite's connections. (A PostgreSQL client closes its connections when its `run` ends.)
    public func shutdown() async {
        await events.close()
        if case .sqlite(let pool, let threadReaders, let checkpointer) = connections {
            threadReaders.close()
            do {
                try pool.close()
                checkpointer.close()
            } catch {
                logger.warning("closing SQLite failed", metadata: ["error": "\(String(reflecting: error))"])
            }
        }
    }

    /// For one-off commands and tests outside a running application: keeps the connections working while `body`
    /// runs (PostgreSQL's client needs its `run` loop), then closes them.
    public func withOpen<Value: Sendable>(_ body: @Sendable (SproutDatabase) async throws -> Value) async throws -> Value {
        switch connections {
        case .sqlite:
            do {
                let value = try await body(self)
                await shutdown()
                return value
            } catch {
                await shutdown()
                throw error
            }
        case .postgres:
            return try await PostgresPoolsRun.whileRunning(connections.postgresClients, logger: logger) { try await body(self) }
        }
    }

    private static let migrationLockKey: Int64 = 0x5370_726F_7574  // "Sprout", as the Fluent-era migrator used
}
