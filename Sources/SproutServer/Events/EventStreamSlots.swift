import NIOConcurrencyHelpers

/// Counts the open streams per account, per address and in the process; a stream takes a slot before anything
/// else is done for it and gives it back when it ends.
final class EventStreamSlots: Sendable {
    enum Refusal: Error { case account, address, process }

    private struct State {
        var accounts: [Int: Int] = [:]
        var addresses: [String: Int] = [:]
        var total = 0
    }

    let limits: EventsSettings
    private let state = NIOLockedValueBox(State())

    init(_ limits: EventsSettings) {
        self.limits = limits
    }

    /// A slot, or the limit that refuses one.
    func take(account: Int?, address: String) throws(Refusal) -> Slot {
        let refusal: Refusal? = state.withLockedValue { state in
            if state.total >= limits.streamsPerProcess { return .process }
            if let account, state.accounts[account, default: 0] >= limits.streamsPerAccount { return .account }
            if state.addresses[address, default: 0] >= limits.streamsPerAddress { return .address }
            state.total += 1
            if let account { state.accounts[account, default: 0] += 1 }
            state.addresses[address, default: 0] += 1
            return nil
        }
        if let refusal { throw refusal }
        return Slot(slots: self, account: account, address: address)
    }

    var open: Int { state.withLockedValue { $0.total } }

    fileprivate func give(account: Int?, address: String) {
        state.withLockedValue { state in
            state.total -= 1
            if let account {
                state.accounts[account, default: 1] -= 1
                if state.accounts[account] == 0 { state.accounts[account] = nil }
            }
            state.addresses[address, default: 1] -= 1
            if state.addresses[address] == 0 { state.addresses[address] = nil }
        }
    }

    /// One stream's slot: given back once, when released.
    final class Slot: Sendable {
        private let slots: EventStreamSlots
        private let account: Int?
        private let address: String
        private let released = NIOLockedValueBox(false)

        fileprivate init(slots: EventStreamSlots, account: Int?, address: String) {
            self.slots = slots
            self.account = account
            self.address = address
        }

        func release() {
            let wasReleased = released.withLockedValue { released in
                defer { released = true }
                return released
            }
            guard !wasReleased else { return }
            slots.give(account: account, address: address)
        }

        deinit { release() }
    }
}
