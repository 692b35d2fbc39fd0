/// At most `limit` callers inside `run` at once; the rest wait their turn, first come first served. Keeps reads
/// that may be slow (substring search over crafted titles) from taking every connection, so plain reads never
/// queue behind them.
actor ConcurrencyLimit {
    let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) {
        precondition(limit > 0)
        self.limit = limit
    }

    func run<Value: Sendable>(_ body: @Sendable () async throws -> Value) async throws -> Value {
        if running < limit {
            running += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
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
