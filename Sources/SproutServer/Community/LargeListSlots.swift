import Synchronization

/// How many large list answers (more rows than one page, streamed) may be in flight: per account, so one account
/// cannot fill the server with `_limit=-1`, and in the whole process, so many accounts cannot either. Four
/// `/posts?_limit=-1` at once once made `/health` take 7 s. A slot is given back when its answer is dropped —
/// written, failed or never sent — so none is lost to a client that went away.
final class LargeListSlots: Sendable {
    struct Limits: Sendable, Equatable {
        var perAccount = 2
        var inAll = 8
    }

    /// A claimed place; the place is free again when this is released.
    final class Slot: Sendable {
        fileprivate let owner: LargeListSlots
        fileprivate let accountID: Int

        fileprivate init(owner: LargeListSlots, accountID: Int) {
            self.owner = owner
            self.accountID = accountID
        }

        deinit { owner.release(accountID: accountID) }
    }

    let limits: Limits
    private let state = Mutex(State())

    private struct State {
        var byAccount: [Int: Int] = [:]
        var inAll = 0
    }

    init(_ limits: Limits = Limits()) {
        self.limits = limits
    }

    /// A slot for one more large answer of `accountID`, or nil when the account or the process has none left.
    func claim(accountID: Int) -> Slot? {
        let granted = state.withLock { state -> Bool in
            guard state.inAll < limits.inAll, state.byAccount[accountID, default: 0] < limits.perAccount else { return false }
            state.inAll += 1
            state.byAccount[accountID, default: 0] += 1
            return true
        }
        return granted ? Slot(owner: self, accountID: accountID) : nil
    }

    /// Large answers in flight now (for tests and logs).
    var inFlight: Int { state.withLock { $0.inAll } }

    fileprivate func release(accountID: Int) {
        state.withLock { state in
            state.inAll -= 1
            let remaining = state.byAccount[accountID, default: 1] - 1
            state.byAccount[accountID] = remaining > 0 ? remaining : nil
        }
    }
}
