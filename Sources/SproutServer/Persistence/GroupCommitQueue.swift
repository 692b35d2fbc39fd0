import NIOConcurrencyHelpers

/// The queue both group commits share (`SQLiteWriteBatcher`, `PostgresWriteBatcher`): writes wait here while a
/// batch is being committed, and the caller that finds nobody draining starts the drain, which takes them in
/// arrival order, at most `maximumBatch` at a time, until none is left.
final class GroupCommitQueue<Item: Sendable>: Sendable {
    private struct State {
        var pending: [Item] = []
        var draining = false
    }

    let maximumBatch: Int
    private let state = NIOLockedValueBox(State())

    init(maximumBatch: Int) {
        self.maximumBatch = maximumBatch
    }

    /// Adds `item`; true when nobody is draining, so the caller must start the drain.
    func enqueue(_ item: Item) -> Bool {
        state.withLockedValue { state in
            state.pending.append(item)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
    }

    /// The next batch; empty when nothing is left, which ends the drain (the next `enqueue` starts another).
    func nextBatch() -> [Item] {
        state.withLockedValue { state in
            let batch = Array(state.pending.prefix(maximumBatch))
            state.pending.removeFirst(batch.count)
            if batch.isEmpty { state.draining = false }
            return batch
        }
    }
}
