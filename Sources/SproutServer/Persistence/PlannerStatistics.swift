import Logging
import NIOConcurrencyHelpers

/// Keeps PostgreSQL's planner statistics in step with fast-growing tables. Autovacuum analyzes a table only
/// after its naptime (a minute) and 10% growth; until then the planner believes a table filled in the last
/// seconds is nearly empty and sorts whole lists instead of walking their index. Measured with
/// `scripts/bench` (20,000 todos created over HTTP, then random pages of 20): 151–158 req/s before autovacuum
/// ran, 890–1,006 once it had. So each process counts the rows its writes add, per table, and runs `ANALYZE`
/// itself after 500, 1,000, 2,000, 4,000 and 8,000 of them, then after every 10,000 — tens of milliseconds in
/// the background each time. SQLite's planner needs no statistics for these index walks, so it counts nothing.
final class PlannerStatistics: Sendable {
    private let counts = NIOLockedValueBox<[String: (added: Int, next: Int)]>([:])
    private let analyze: @Sendable (String) async throws -> Void
    private let logger: Logger

    init(logger: Logger, analyze: @escaping @Sendable (String) async throws -> Void) {
        self.logger = logger
        self.analyze = analyze
    }

    /// Notes `rows` new rows in `table` (a fixed table name, never user input).
    func noteGrowth(of table: String, by rows: Int = 1) {
        let due = counts.withLockedValue { counts -> Bool in
            var entry = counts[table] ?? (0, 500)
            entry.added += rows
            let due = entry.added >= entry.next
            if due { entry.next = entry.added < 8_000 ? entry.added * 2 : entry.added + 10_000 }
            counts[table] = entry
            return due
        }
        guard due else { return }
        let (analyze, logger) = (analyze, logger)
        Task.detached(priority: .background) {
            do {
                try await analyze(table)
            } catch {
                logger.warning("ANALYZE failed", metadata: ["table": "\(table)", "error": "\(error)"])
            }
        }
    }
}
