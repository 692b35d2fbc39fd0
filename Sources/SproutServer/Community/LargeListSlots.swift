import Synchronization

/// How many large list answers (more rows than one page, streamed) may be in flight: per account, so one account
/// cannot fill the server with `_limit=-1`, and in the whole process, so many accounts cannot either. Four
/// `/posts?_limit=-1` at once once made `/health` take 7 s. A slot is given back when its answer is dropped —
/// written, failed or never sent — and stops counting after `longestHold` even if it is not: a client that stops
/// reading would otherwise keep its slot as long as it keeps the connection, and eight of them would shut every
/// account out. The stream itself ends at that point too (`StreamedJSONArray`).
final class LargeListSlots: Sendable {
    struct Limits: Sendable, Equatable {
        var perAccount = 2
        var inAll = 8
        var longestHold: Duration = .seconds(120)
    }

    /// A claimed place; the place is free again when this is released, or once it is older than `longestHold`.
    final class Slot: Sendable {
        fileprivate let owner: LargeListSlots
        fileprivate let number: Int
        /// When the answer must be finished: past it, the stream stops at the next chunk.
        let deadline: ContinuousClock.Instant

        fileprivate init(owner: LargeListSlots, number: Int, deadline: ContinuousClock.Instant) {
            self.owner = owner
            self.number = number
            self.deadline = deadline
        }

        deinit { owner.release(number) }
    }

    let limits: Limits
    private let state = Mutex(State())

    private struct State {
        var nextNumber = 0
        var claims: [Int: (accountID: Int, deadline: ContinuousClock.Instant)] = [:]
    }

    init(_ limits: Limits = Limits()) {
        self.limits = limits
    }

    /// A slot for one more large answer of `accountID`, or nil when the account or the process has none left.
    func claim(accountID: Int, now: ContinuousClock.Instant = .now) -> Slot? {
        let deadline = now + limits.longestHold
        let number = state.withLock { state -> Int? in
            let live = state.claims.values.filter { $0.deadline > now }
            guard live.count < limits.inAll, live.count(where: { $0.accountID == accountID }) < limits.perAccount else { return nil }
            state.nextNumber += 1
            state.claims[state.nextNumber] = (accountID, deadline)
            return state.nextNumber
        }
        return number.map { Slot(owner: self, number: $0, deadline: deadline) }
    }

    /// Slots held now, expired or not (for tests).
    var held: Int { state.withLock { $0.claims.count } }

    fileprivate func release(_ number: Int) {
        _ = state.withLock { $0.claims.removeValue(forKey: number) }
    }
}
