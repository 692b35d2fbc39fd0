import Foundation
import GRDB
import NIOConcurrencyHelpers
import PostgresNIO
@testable import SproutServer

/// Makes every product insert fail, and holds the first one back until `release()`: a test can look at what an
/// upload has left on disk and in the database while its insert is under way — what a crash at that moment would
/// leave — and then see what the failure leaves. SQLite: a trigger calls a function that blocks the writer
/// thread; PostgreSQL: another transaction holds the table locked while the trigger waits to raise.
final class ProductInsertHold: Sendable {
    private let isWaiting: @Sendable () async throws -> Bool
    private let releaseHold: @Sendable () -> Void
    private let holder: Task<Void, any Error>?

    private init(isWaiting: @escaping @Sendable () async throws -> Bool, release: @escaping @Sendable () -> Void, holder: Task<Void, any Error>? = nil) {
        self.isWaiting = isWaiting
        releaseHold = release
        self.holder = holder
    }

    static func install(on database: SproutDatabase) async throws -> ProductInsertHold {
        if let sqlite = database.executor as? SQLiteExecutor { return try await sqliteHold(sqlite) }
        if let postgres = database.executor as? PostgresExecutor { return try await postgresHold(postgres) }
        throw TestFailure("no hold for \(type(of: database.executor))")
    }

    /// Waits (at most `limit`) until an insert is held.
    func waitForAnInsert(within limit: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + limit
        while try await !isWaiting() {
            guard ContinuousClock.now < deadline else { throw TestFailure("no product insert came within \(limit)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func release() async throws {
        releaseHold()
        try await holder?.value
    }

    private static func sqliteHold(_ executor: SQLiteExecutor) async throws -> ProductInsertHold {
        let entered = NIOLockedValueBox(false)
        let released = DispatchSemaphore(value: 0)
        let open = NIOLockedValueBox(false)
        let hold = DatabaseFunction("sprout_test_hold", argumentCount: 0, pure: false) { _ in
            guard !open.withLockedValue({ $0 }) else { return 1 }
            entered.withLockedValue { $0 = true }
            _ = released.wait(timeout: .now() + 60)
            return 1
        }
        // On the writer connection, the only one that runs the trigger.
        try await executor.pool.writeWithoutTransaction { db in db.add(function: hold) }
        try await executor.writeAll([SQLStatement("""
            CREATE TRIGGER test_hold_products BEFORE INSERT ON market_products
            BEGIN SELECT RAISE(ABORT, 'refused by the test') WHERE sprout_test_hold() = 1; END
            """)])
        return ProductInsertHold(isWaiting: { entered.withLockedValue { $0 } }, release: {
            open.withLockedValue { $0 = true }
            released.signal()
        })
    }

    private static func postgresHold(_ executor: PostgresExecutor) async throws -> ProductInsertHold {
        try await executor.writeAll([
            SQLStatement("CREATE FUNCTION test_refuse_products() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$"),
            SQLStatement("CREATE TRIGGER test_refuse_products BEFORE INSERT ON market_products FOR EACH ROW EXECUTE FUNCTION test_refuse_products()"),
        ])
        let (released, releasing) = AsyncStream<Void>.makeStream()
        let locked = NIOLockedValueBox(false)
        let holder = Task {
            try await executor.client.withTransaction(logger: Logger(label: "test-hold")) { connection in
                for try await _ in try await connection.query("LOCK TABLE market_products IN EXCLUSIVE MODE", logger: Logger(label: "test-hold")) {}
                locked.withLockedValue { $0 = true }
                for await _ in released {}
            }
        }
        return ProductInsertHold(isWaiting: {
            guard locked.withLockedValue({ $0 }) else { return false }
            let waiting = try await executor.readFirst(SQLStatement(
                "SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'market_products'::regclass"
            ), as: SQLInt.self)
            return (waiting?.value ?? 0) > 0
        }, release: { releasing.finish() }, holder: holder)
    }
}
