import Logging
import NIOPosix
import PostgresNIO
import Testing
@testable import SproutServer

/// Hot statements are kept prepared on each PostgreSQL connection (`SQLStatement.prepared()`).
struct PostgresPreparedSQLTests {
    @Test func aPreparedStatementsNameIsItsTextAndItsParameterTypes() {
        let name = PostgresPreparedSQL.name(sql: "SELECT $1", types: [.int8])
        #expect(name == PostgresPreparedSQL.name(sql: "SELECT $1", types: [.int8]))
        #expect(name != PostgresPreparedSQL.name(sql: "SELECT $1", types: [.null]))
        #expect(name != PostgresPreparedSQL.name(sql: "SELECT $1", types: [.text]))
        #expect(name != PostgresPreparedSQL.name(sql: "SELECT $1 ", types: [.int8]))
        #expect(name.hasPrefix("sprout_") && name.utf8.count == 23)
    }

    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func aStatementIsPreparedOnceOnItsConnectionAndEachCallBindsItsOwnValues() async throws {
        try await withOneConnection { executor in
            let sql = "SELECT coalesce(CAST($1 AS TEXT), 'none')"
            func answer(_ value: SQLValue) async throws -> [String] {
                try await executor.read(SQLStatement(sql, value).prepared(), as: SQLTextValue.self).map(\.value)
            }
            #expect(try await answer(.int(5)) == ["5"])
            #expect(try await answer(.int(6)) == ["6"])
            // The same text with a NULL or a text value is another statement: bound to the integer one, the
            // server would read a text value's bytes as a bigint.
            #expect(try await answer(.null) == ["none"])
            #expect(try await answer(.text("새싹")) == ["새싹"])
            #expect(try await answer(.int(7)) == ["7"])

            let kept = try await executor.read(
                SQLStatement("SELECT name FROM pg_prepared_statements WHERE statement = $1 ORDER BY name", .text(sql))
                    .prepared(),
                as: SQLTextValue.self
            ).map(\.value)
            let expected = [PostgresDataType.int8, .null, .text].map { PostgresPreparedSQL.name(sql: sql, types: [$0]) }
            #expect(kept == expected.sorted())
        }
    }

    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func aStatementNotMarkedPreparedIsNotKept() async throws {
        try await withOneConnection { executor in
            _ = try await executor.read(SQLStatement("SELECT CAST($1 AS BIGINT) + 1", .int(1)), as: SQLInt.self)
            let kept = try await executor.read(
                SQLStatement("SELECT count(*) FROM pg_prepared_statements"), as: SQLInt.self
            )
            #expect(kept.map(\.value) == [0])
        }
    }

    /// A statement failing while it executes gives its connection back: with pools of one connection, a leaked
    /// lease hangs the next call (postgres-nio's `client.query`/`client.execute` leaked it whenever the failure
    /// arrived before the caller began reading the rows: this hung the CI run). The limit only catches that hang:
    /// in the full parallel suite (697 tests, ~200 s on PostgreSQL here) its hundred round trips wait their turn
    /// among every other test's and took over a minute twice, so it is three.
    @Test(
        .enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"),
        .timeLimit(.minutes(3))
    )
    func aStatementFailingAsItRunsThrowsTheServersErrorAndFreesItsConnection() async throws {
        try await withOneConnection { executor in
            for prepared in [true, false] {
                for _ in 0..<50 {
                    var failing = SQLStatement("SELECT 1 / CAST($1 AS BIGINT)", .int(0))
                    failing.isPrepared = prepared
                    await #expect(throws: PSQLError.self) { _ = try await executor.read(failing, as: SQLInt.self) }
                }
                var working = SQLStatement("SELECT 1 / CAST($1 AS BIGINT)", .int(1))
                working.isPrepared = prepared
                let answer = try await executor.read(working, as: SQLInt.self).map(\.value)
                #expect(answer == [1])
            }
        }
    }

    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func aPreparedStatementIsPlannedOnceWhateverItsValues() async throws {
        try await withOneConnection { executor in
            // The cost of a LIMIT known only at run time is guessed high, so under the default plan_cache_mode
            // PostgreSQL would keep planning this afresh for every call.
            let sql = "SELECT n FROM generate_series(1, 1000) AS n ORDER BY n LIMIT $1"
            for limit in 1...8 {
                let rows = try await executor.read(SQLStatement(sql, .int(limit)).prepared(), as: SQLInt.self)
                #expect(rows.map(\.value) == Array(1...limit))
            }
            let plans = try await executor.read(
                SQLStatement("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1", .text(sql))
                    .prepared(),
                as: PlanCounts.self
            )
            #expect(plans.map(\.generic) == [8])
            #expect(plans.map(\.custom) == [0])
        }
    }

    @Test func aPreparedStatementUsesThePoolOfTheEventLoopItIsCalledOn() async throws {
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
        let pools = PostgresLoopPools(
            configuration: .init(host: "127.0.0.1", username: "sprout", password: nil, database: nil, tls: .disable),
            loops: loops,
            logger: testLogger()
        )
        #expect(pools.clients.count == loops.count)
        for (index, loop) in loops.enumerated() {
            let chosen = try await loop.submit { ObjectIdentifier(pools.current) }.get()
            #expect(chosen == ObjectIdentifier(pools.clients[index]))
        }
        // Off the event loops (a command, these tests): the first pool.
        #expect(ObjectIdentifier(pools.current) == ObjectIdentifier(pools.clients[0]))
    }

    /// Writes sharing a transaction (`PostgresWriteBatcher`) run a statement marked prepared as a named statement
    /// on the batch's session too, so PostgreSQL neither parses nor plans it for each (the batch's part of todo
    /// create's CPU on PostgreSQL 110 → 80 µs); a statement breaking a rule there still gets its own error.
    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func writesSharingATransactionRunTheirStatementsPrepared() async throws {
        try await withOneConnection { executor in
            // A table of its own in the shared schema (a temporary one would be missing from the prepared pool's
            // session, where a write that comes alone runs).
            let table = "batch_prepared_\(UInt32.random(in: 0...UInt32.max))"
            try await executor.writeAll([
                SQLStatement("CREATE TABLE \(raw: table) (name TEXT PRIMARY KEY)"),
                SQLStatement("INSERT INTO \(raw: table) VALUES ('taken')"),
            ])
            let sql = "INSERT INTO \(table) (name) VALUES ($1) RETURNING txid_current() AS value"
            /// 32 writes at once; for each, its transaction's id or the server's error code.
            func writeAtOnce(_ names: [String]) async throws -> [WriteOutcome] {
                try await withThrowingTaskGroup(of: WriteOutcome.self) { group in
                    for name in names {
                        group.addTask {
                            do {
                                let rows = try await executor.write(SQLStatement(sql, .text(name)).prepared(), as: SQLInt.self)
                                return .transaction(try #require(rows.first?.value))
                            } catch let error as PSQLError {
                                return .failed(error.serverInfo?[.sqlState] ?? "no code")
                            }
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            let transactions = try await writeAtOnce((0..<32).map { "first \($0)" }).compactMap { outcome -> Int? in
                guard case .transaction(let id) = outcome else { return nil }
                return id
            }
            #expect(transactions.count == 32)
            #expect(Set(transactions).count < 32, "the writes shared transactions")
            // Read unprepared, so on the batches' session (the pool of one), not the prepared pool's.
            let kept = try await executor.read(
                SQLStatement("SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", .text(sql)), as: SQLInt.self
            )
            #expect(kept.map(\.value) == [1])

            let outcomes = try await writeAtOnce((0..<32).map { $0 % 10 == 5 ? "taken" : "second \($0)" })
            let codes = outcomes.compactMap { outcome -> String? in
                guard case .failed(let code) = outcome else { return nil }
                return code
            }
            #expect(codes == ["23505", "23505", "23505"])
            let stored = try await executor.read(SQLStatement("SELECT count(*) FROM \(raw: table)"), as: SQLInt.self)
            try await executor.writeAll([SQLStatement("DROP TABLE \(raw: table)")])
            #expect(stored.map(\.value) == [1 + 32 + 29])
        }
    }

    private enum WriteOutcome: Sendable {
        case transaction(Int)
        case failed(String)
    }

    private struct PlanCounts: SQLRowDecodable {
        let generic: Int
        let custom: Int
        init(row: some SQLRow) throws {
            generic = try row.int(0)
            custom = try row.int(1)
        }
    }

    /// Rows are decoded on the event loop that delivers them (`EventLoopIsolation`), not wherever the caller's
    /// task happens to run: there each step of each row cost a round trip through a queue.
    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func rowsAreReadOnTheirConnectionsEventLoop() async throws {
        try await withOneConnection { executor in
            let unnamed = try await executor.read(SQLStatement("SELECT generate_series(1, 3)"), as: LoopOfDecoding.self)
            let prepared = try await executor.read(
                SQLStatement("SELECT generate_series(1, CAST($1 AS INT))", .int(3)).prepared(), as: LoopOfDecoding.self
            )
            #expect(unnamed.count == 3)
            #expect(prepared.count == 3)
            let loops = (unnamed + prepared).map(\.decodedOnAnEventLoop)
            #expect(loops == Array(repeating: true, count: 6))
        }
    }

    private struct LoopOfDecoding: SQLRowDecodable {
        let decodedOnAnEventLoop: Bool
        init(row: some SQLRow) throws {
            decodedOnAnEventLoop = MultiThreadedEventLoopGroup.currentEventLoop != nil
        }
    }

    /// A read not kept prepared runs on the pool of the event loop its task runs on (its rows then come back on that
    /// thread), a slow read on the shared pool (a search must not hold a loop's few connections).
    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func aPlainReadUsesThePoolOfItsEventLoopAndASlowReadTheSharedOne() async throws {
        let logger = testLogger()
        let url = try #require(TestDatabasePlace.postgresURL)
        let configuration = try PostgresClient.Configuration.sprout(url: url, schema: nil, maximumConnections: 1, statementTimeout: .seconds(30))
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let plain = PostgresLoopPools(configuration: configuration, loops: Array(loops.makeIterator()), logger: logger)
        let executor = PostgresExecutor(client: client, preparedPools: nil, plainPools: plain, slowReads: ConcurrencyLimit(1), logger: logger)
        let backend: SQLStatement = "SELECT pg_backend_pid() AS value"
        func sessionReading(on loop: any EventLoop) async throws -> Int? {
            try await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
                await Task.yield()
                return try await executor.readFirst(backend, as: SQLInt.self)?.value
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await PostgresPoolsRun.run([client] + plain.clients, logger: logger) }
            defer { group.cancelAll() }
            let threads = Array(loops.makeIterator())
            let (first, second) = (threads[0], threads[1])
            let onFirst = try #require(try await sessionReading(on: first))
            #expect(try await sessionReading(on: first) == onFirst)
            let onSecond = try #require(try await sessionReading(on: second))
            #expect(onSecond != onFirst)
            let slow = try #require(try await executor.slowRead(backend, as: SQLInt.self).first?.value)
            #expect(slow != onFirst && slow != onSecond)
        }
        try await loops.shutdownGracefully()
    }

    /// Pools of one connection each, so every call of a test meets the same sessions.
    private func withOneConnection(_ body: @Sendable (PostgresExecutor) async throws -> Void) async throws {
        let logger = testLogger()
        let url = try #require(TestDatabasePlace.postgresURL)
        let client = PostgresClient(
            configuration: try .sprout(url: url, schema: nil, maximumConnections: 1, statementTimeout: .seconds(30)),
            backgroundLogger: logger
        )
        let prepared = PostgresLoopPools(
            configuration: try .sprout(
                url: url, schema: nil, maximumConnections: 1, statementTimeout: .seconds(30), keepsGenericPlans: true
            ),
            loops: [MultiThreadedEventLoopGroup.singleton.next()],
            logger: logger
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await PostgresPoolsRun.run([client, prepared.clients[0]], logger: logger) }
            defer { group.cancelAll() }
            try await body(
                PostgresExecutor(client: client, preparedPools: prepared, slowReads: ConcurrencyLimit(1), logger: logger)
            )
        }
    }
}
