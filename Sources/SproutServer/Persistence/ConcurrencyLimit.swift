/// At most `limit` callers inside `run` at once; the rest wait their turn, first come first served. Keeps reads
/// that may be slow (substring search over crafted titles) from taking every connection, so plain reads never
/// queue behind them.
actor ConcurrencyLimit {
    let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Told how long a caller waited for its turn, when it had to.
    private let onWait: @Sendable (ContinuousClock.Instant) -> Void

    init(_ limit: Int, onWait: @escaping @Sendable (_ since: ContinuousClock.Instant) -> Void = { _ in }) {
        precondition(limit > 0)
        self.limit = limit
        self.onWait = onWait
    }

    func run<Value: Sendable>(_ body: @Sendable () async throws -> Value) async throws -> Value {
        if running < limit {
            running += 1
        } else {
            let queued = ContinuousClock.now
            await withCheckedContinuation { waiting.append($0) }
            onWait(queued)
        }
        defer { release() }
        return try await body()
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()  // the permit passes straight to the next caller
        }
    }
}
