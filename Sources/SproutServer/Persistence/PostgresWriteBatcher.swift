import Logging
import NIOConcurrencyHelpers
import NIOPosix
import PostgresNIO

/// Group commit for PostgreSQL: writes (single statements and sequences) that arrive while a batch is committing
/// share the next transaction, so many requests pay for one commit (one WAL flush with `synchronous_commit` on) instead of one
/// each. Every caller hears of its write only after the transaction holding it committed.
///
/// A batch is all or nothing. If any statement of it fails (a unique violation, a lock it waited for too long,
/// a statement timeout), the batch is rolled back and each of its statements runs again on its own, as it would
/// have without batching, so every caller gets the outcome of its own statement and of nothing else. A failed
/// COMMIT is the exception: whether it took effect is unknown, so its error goes to every caller, as a single
/// statement's lost connection would (nothing is run twice).
///
/// A batch waits at most `lockTimeout` for any one lock before it gives up and runs its statements alone: two
/// processes' batches may take rows in opposite orders (a topic's event counter, a list's counts row), and
/// PostgreSQL would only notice that deadlock after its `deadlock_timeout` of a second.
final class PostgresWriteBatcher: Sendable {
    private struct Pending: Sendable {
        /// Runs the statement on a connection and keeps its rows; throws the server's error.
        let perform: @Sendable (PostgresConnection) async throws -> Void
        /// Runs the statement alone (autocommit, as `PostgresExecutor` runs any statement) and keeps its outcome.
        let performAlone: @Sendable () async -> Void
        /// Resumes the caller with the kept outcome, or with the commit's error.
        let deliver: @Sendable ((any Error)?) -> Void
        /// Set for a lone INSERT of one row that may be joined with the same inserts beside it (`SQLInsertShape`).
        let insert: JoinableInsert?
    }

    /// A write that is one row of an INSERT: its statement, and how it keeps its own row of a joined INSERT.
    private struct JoinableInsert: Sendable {
        let statement: SQLStatement
        let shape: SQLInsertShape
        let accept: @Sendable (ReturnedRow) throws -> Void
    }

    /// A row of a joined INSERT, decoded by the write it belongs to (within the batch's task).
    private struct ReturnedRow: SQLRowDecodable, @unchecked Sendable {
        let row: any SQLRow
        init(row: some SQLRow) { self.row = row }
    }

    /// Bounds one commit's latency when writes pour in.
    static let maximumBatch = 64
    static let lockTimeout = "200ms"

    /// The thread the batches' connections (`SproutDatabase`'s batch pool) and their statements run on, shared by
    /// every database of the process. A batch's statements go one after another, each waiting for the one before;
    /// on the event loops that also parse and answer HTTP, each waited its turn behind that work too. Todo create
    /// at 64 connections on a durable PostgreSQL: 5,426 / 5,224 → 6,084 / 5,669 req/s with this thread.
    static let loop: any EventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Connections of the batch pool: batches are committed one at a time.
    static let connections = 2

    private let client: PostgresClient
    private let queue = GroupCommitQueue<Pending>(maximumBatch: PostgresWriteBatcher.maximumBatch)
    private let metrics: DatabaseMetrics?
    /// Statements marked `prepared()` run as named prepared statements in a batch too (not through a transaction
    /// pooler, where the next transaction may get another session).
    private let keepsStatementsPrepared: Bool

    init(client: PostgresClient, keepsStatementsPrepared: Bool, metrics: DatabaseMetrics? = nil) {
        self.client = client
        self.keepsStatementsPrepared = keepsStatementsPrepared
        self.metrics = metrics
    }

    /// `alone` runs `statement` in autocommit, as the executor runs any statement: for a batch of one, and again
    /// for each statement of a batch that was rolled back.
    func write<Row: SQLRowDecodable>(
        _ statement: SQLStatement, as type: Row.Type, alone: @escaping @Sendable () async throws -> [Row]
    ) async throws -> [Row] {
        try await write([statement], as: Row.self, alone: alone)
    }

    /// Several statements, one after another in the batch's transaction, answering the last one's rows (a sequence
    /// is all or nothing with its batch). `alone` runs them in a transaction of their own: for a batch of one, and
    /// again after a batch was rolled back.
    func write<Row: SQLRowDecodable>(
        _ statements: [SQLStatement], as type: Row.Type, alone: @escaping @Sendable () async throws -> [Row]
    ) async throws -> [Row] {
        guard let last = statements.last else { return [] }
        let outcome = NIOLockedValueBox<Result<[Row], any Error>?>(nil)
        let keepsStatementsPrepared = keepsStatementsPrepared
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Row], any Error>) in
            let pending = Pending(
                perform: { connection in
                    for statement in statements.dropLast() {
                        let _: [SQLIgnoredRow] = try await Self.run(statement, on: connection, prepared: keepsStatementsPrepared)
                    }
                    let rows: [Row] = try await Self.run(last, on: connection, prepared: keepsStatementsPrepared)
                    outcome.withLockedValue { $0 = .success(rows) }
                },
                performAlone: {
                    let result: Result<[Row], any Error>
                    do { result = .success(try await alone()) } catch { result = .failure(error) }
                    outcome.withLockedValue { $0 = result }
                },
                deliver: { commitError in
                    if let commitError {
                        continuation.resume(throwing: commitError)
                    } else if let result = outcome.withLockedValue({ $0 }) {
                        continuation.resume(with: result)
                    } else {
                        continuation.resume(throwing: SQLRowError.missingReturnedRow)
                    }
                },
                insert: statements.count == 1 ? last.insertShape.map { shape in
                    JoinableInsert(statement: last, shape: shape) { returned in
                        let row = try Row(row: returned.row)
                        outcome.withLockedValue { $0 = .success([row]) }
                    }
                } : nil
            )
            if queue.enqueue(pending) {
                Task { await self.drain() }
            }
        }
    }

    /// Commits what is pending, batch after batch, until nothing is left.
    private func drain() async {
        while true {
            let batch = queue.nextBatch()
            guard !batch.isEmpty else { return }
            metrics?.postgresBatchSize.record(batch.count)
            if batch.count == 1 {
                // Alone, a statement is its own transaction: BEGIN and COMMIT would only add two round trips.
                await batch[0].performAlone()
                batch[0].deliver(nil)
                continue
            }
            switch await commit(batch) {
            case .committed:
                for item in batch { item.deliver(nil) }
            case .commitFailed(let error):
                for item in batch { item.deliver(error) }
            case .rolledBack:
                // Concurrent requests have no order among them: run alone, side by side, as without batching.
                await withTaskGroup(of: Void.self) { group in
                    for item in batch { group.addTask { await item.performAlone() } }
                }
                for item in batch { item.deliver(nil) }
            }
        }
    }

    /// A statement on the batch's connection, prepared there when it is marked so and sessions keep statements.
    private static func run<Row: SQLRowDecodable>(_ statement: SQLStatement, on connection: PostgresConnection, prepared: Bool) async throws -> [Row] {
        // A statement sent to a closed connection would never be answered (`PostgresTransaction`).
        try connection.checkOpen()
        if prepared && statement.isPrepared { return try await PostgresExecutor.preparedRows(statement, on: connection) }
        return try await PostgresExecutor.rows(
            try await connection.query(PostgresExecutor.query(statement), logger: PostgresExecutor.silent), on: connection.eventLoop
        )
    }

    /// One INSERT of every row of `inserts`; each keeps its own returned row (PostgreSQL returns them in the order of
    /// the VALUES). Any other count of rows than asked for fails the batch, whose writes then run alone.
    private static func insertJoined(_ inserts: [JoinableInsert], shape: SQLInsertShape, on connection: PostgresConnection) async throws {
        let joined = SQLStatement.insertingRows(inserts.map(\.statement), shape: shape)
        let rows: [ReturnedRow] = try await run(joined, on: connection, prepared: false)
        guard rows.count == inserts.count else { throw SQLRowError.missingReturnedRow }
        for (insert, row) in zip(inserts, rows) { try insert.accept(row) }
    }

    /// The rows of a statement whose answer nobody reads (a sequence's statements before its last).
    private struct SQLIgnoredRow: SQLRowDecodable {
        init(row: some SQLRow) {}
    }

    private enum BatchOutcome {
        case committed
        case rolledBack
        case commitFailed(any Error)
    }

    /// The batch runs on its connection's event loop: its statements go one after another (postgres-nio sends one
    /// at a time), and on Swift's pool each would cross threads four times (todo create at 64 connections on a
    /// durable PostgreSQL: 3,779–3,867 → 4,641–4,780 req/s, Sprout's CPU 162 → 119 µs a create).
    private func commit(_ batch: [Pending]) async -> BatchOutcome {
        do {
            return try await client.withOpenConnection { connection in
                try await withTaskExecutorPreference(EventLoopTaskExecutor(connection.eventLoop)) {
                    try await Self.commit(batch, on: connection)
                }
            }
        } catch {
            // No connection to begin on: nothing ran.
            return .rolledBack
        }
    }

    private static func commit(_ batch: [Pending], on connection: PostgresConnection) async throws -> BatchOutcome {
        do {
            try await PostgresTransaction.execute("BEGIN", on: connection)
            try await PostgresTransaction.execute("SET LOCAL lock_timeout = '\(Self.lockTimeout)'", on: connection)
            var index = 0
            while index < batch.count {
                // Inserts of one shape side by side go as one INSERT of all their rows: one round trip, not one each.
                if let shape = batch[index].insert?.shape {
                    var end = index + 1
                    while end < batch.count, batch[end].insert?.shape == shape { end += 1 }
                    if end - index > 1 {
                        try await insertJoined(batch[index..<end].compactMap(\.insert), shape: shape, on: connection)
                        index = end
                        continue
                    }
                }
                try await batch[index].perform(connection)
                index += 1
            }
        } catch {
            // The connection may be gone too; the statements then fail alone with the pool's error.
            await PostgresTransaction.rollBack(connection, after: error)
            return .rolledBack
        }
        do {
            try await PostgresTransaction.execute("COMMIT", on: connection)
            return .committed
        } catch {
            return .commitFailed(error)
        }
    }
}
