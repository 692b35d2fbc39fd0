import Foundation

/// Events counted per key in a sliding window, shared by every server process on the database: a row per event
/// in `rate_limit_events`. `claim` records an event only while the key is under its limit, in one transaction
/// that waits for the key's other claims (a PostgreSQL advisory lock; SQLite has one writer), so a burst of
/// concurrent calls cannot all slip under the limit before any is recorded.
struct RateLimitLedger: Sendable {
    /// Rows older than this are of no window any more and are swept by every claim.
    static let longestWindow: TimeInterval = 24 * 3600

    let executor: any SQLExecutor

    /// Records one event for `key`, or answers false when `limit` events were already recorded within `window`.
    func claim(_ key: String, limit: Int, window: TimeInterval, at now: Date) async throws -> Bool {
        var statements: [SQLStatement] = []
        if executor.dialect == .postgres {
            statements.append("SELECT pg_advisory_xact_lock(hashtext(\(bind: "rate:" + key)))")
        }
        statements.append("DELETE FROM rate_limit_events WHERE at <= \(bind: now.addingTimeInterval(-Self.longestWindow))")
        let windowStart = now.addingTimeInterval(-min(window, Self.longestWindow))
        statements.append("""
            INSERT INTO rate_limit_events (key, at) SELECT \(bind: key), \(bind: now)
            WHERE (SELECT count(*) FROM rate_limit_events WHERE key = \(bind: key) AND at > \(bind: windowStart)) < \(bind: limit)
            RETURNING key
            """)
        return try await !executor.writeSequence(statements, as: SQLTextValue.self).isEmpty
    }
}
