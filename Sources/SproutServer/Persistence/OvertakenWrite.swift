/// How long a read-merge-write keeps reading again while writers in *other* processes keep landing first, and how
/// long it waits between tries (a random pause, so two processes do not retry in step).
enum OvertakenWrite {
    static let patience: Duration = .seconds(10)
    /// Each try that lost was lost to a write that landed, so the others made progress meanwhile. On a starved
    /// machine one try can take seconds (the whole test suite at once: a twelve-PATCH test took 110 s), and a
    /// deadline alone then failed a PATCH (503) that had been overtaken only a few times.
    static let minimumTries = 50

    /// One request's lost tries and its deadline; it gives up once both are used up.
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
