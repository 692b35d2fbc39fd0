import Foundation

/// The overview's costly figures: the rows of every app counted and the 30 days' charts grouped, a few whole-table
/// scans. They are kept for a minute and computed by one request at a time (the others wait for its answer), so an
/// operator's refreshes, or many operators, cost at most one computation a minute per process: measured at 100,000
/// rows, computing them took a p50 of 46 ms and a p99 of 105 ms on SQLite (`scripts/bench --admin`).
struct OverviewFigures: Sendable {
    let counts: AppCounts
    let accounts: Int
    let signUps: [Int]
    let content: [Int]
    /// When they were counted (the page says so).
    let countedAt: Date
}

actor OverviewFiguresCache {
    static let lifetime: TimeInterval = 60

    private var kept: OverviewFigures?
    private var inFlight: Task<OverviewFigures, any Error>?

    func figures(now: Date, compute: @escaping @Sendable () async throws -> OverviewFigures) async throws -> OverviewFigures {
        if let kept, now.timeIntervalSince(kept.countedAt) < Self.lifetime, now >= kept.countedAt { return kept }
        if let inFlight { return try await inFlight.value }
        let task = Task { try await compute() }
        inFlight = task
        defer { inFlight = nil }
        let figures = try await task.value
        kept = figures
        return figures
    }
}
