/// Writers of one row, one at a time within this process, first come first served (security review, point 16).
/// The read-merge-write updates (a Market PATCH, a Diary PUT) write only over what they read and read again when
/// another write landed in between; run through this, two requests of this process never overtake each other, so
/// only a writer in another process can make one read again, and a request never fails because another landed.
actor RowSerializer {
    /// Per key, the callers waiting behind the one running; a key is present while someone holds it.
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func run<Value: Sendable>(_ key: String, _ body: @Sendable () async throws -> Value) async throws -> Value {
        if waiting[key] == nil {
            waiting[key] = []
        } else {
            await withCheckedContinuation { waiting[key, default: []].append($0) }
        }
        defer { release(key) }
        return try await body()
    }

    private func release(_ key: String) {
        guard var queue = waiting[key], !queue.isEmpty else {
            waiting[key] = nil
            return
        }
        let next = queue.removeFirst()  // the turn passes straight to the next caller
        waiting[key] = queue
        next.resume()
    }
}

/// How long a read-merge-write keeps reading again while writers in *other* processes keep landing first, and how
/// long it waits between tries (a random pause, so two processes do not retry in step).
enum OvertakenWrite {
    static let patience: Duration = .seconds(10)
    /// Each try that lost was lost to a write that landed, so the others made progress meanwhile. On a starved
    /// machine one try can take seconds (the whole test suite at once: a twelve-PATCH test took 110 s), and a
    /// deadline alone then failed a PATCH (503) that had been overtaken only a few times.
    static let minimumTries = 50

    /// Counts one request's tries; `spent` once both the time and the tries are used up.
    struct Budget {
        private let deadline: ContinuousClock.Instant
        private let minimumTries: Int
        private var tries = 0

        init(patience: Duration = OvertakenWrite.patience, minimumTries: Int = OvertakenWrite.minimumTries) {
            deadline = ContinuousClock.now.advanced(by: patience)
            self.minimumTries = minimumTries
        }

        /// Records a lost try; true when the request should give up rather than try again.
        mutating func overtaken() -> Bool {
            tries += 1
            return tries >= minimumTries && ContinuousClock.now >= deadline
        }
    }

    static func pause() async throws {
        try await Task.sleep(for: .milliseconds(Int.random(in: 1...15)))
    }
}
