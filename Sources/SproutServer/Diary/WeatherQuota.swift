import Foundation
import Synchronization

/// What upstream weather calls an account, and this process, may cause: each costs the server's provider quota
/// (OpenWeather's free key allows 60 a minute), and any signed-in account could otherwise ask for 30 places in a
/// row. Concurrent misses for one place share one upstream call (`flight(for:)`); misses are counted per account
/// and in all, in a sliding window; after an upstream failure no call is made for a short back-off.
/// Counts are this process's own: several processes each keep their own budget.
final class WeatherQuota: Sendable {
    struct Limits: Sendable, Equatable {
        var missesPerAccount = 30
        var missesInAll = 300
        var window: Duration = .seconds(600)
        var backOffAfterFailure: Duration = .seconds(10)
    }

    enum Refusal: Error {
        case accountBudgetSpent
        case processBudgetSpent
        case backingOff(remaining: Duration)
    }

    let limits: Limits
    private let state = Mutex(State())

    private struct State {
        var missesByAccount: [Int: [ContinuousClock.Instant]] = [:]
        var misses: [ContinuousClock.Instant] = []
        var failedAt: ContinuousClock.Instant?
        var flights: [String: Task<CurrentWeather, any Error>] = [:]
    }

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The upstream call for `key`: the one already in flight, or a new one made by `start` once the budgets
    /// allow it (counted against `account` and the process).
    func flight(for key: String, account: Int, start: @escaping @Sendable () async throws -> CurrentWeather) throws -> Task<CurrentWeather, any Error> {
        try state.withLock { state in
            if let running = state.flights[key] { return running }
            let now = ContinuousClock.now
            if let failedAt = state.failedAt, now - failedAt < limits.backOffAfterFailure {
                throw Refusal.backingOff(remaining: limits.backOffAfterFailure - (now - failedAt))
            }
            let since = now - limits.window
            state.misses.removeAll { $0 <= since }
            var mine = state.missesByAccount[account, default: []]
            mine.removeAll { $0 <= since }
            guard mine.count < limits.missesPerAccount else { throw Refusal.accountBudgetSpent }
            guard state.misses.count < limits.missesInAll else { throw Refusal.processBudgetSpent }
            mine.append(now)
            state.missesByAccount[account] = mine
            state.misses.append(now)
            if state.missesByAccount.count > 10_000 {  // forget accounts whose misses have all left the window
                state.missesByAccount = state.missesByAccount.filter { !$0.value.allSatisfy { $0 <= since } }
            }
            let task = Task { [weak self] in
                defer { self?.land(key) }
                do {
                    return try await start()
                } catch {
                    self?.noteFailure()
                    throw error
                }
            }
            state.flights[key] = task
            return task
        }
    }

    private func land(_ key: String) {
        state.withLock { _ = $0.flights.removeValue(forKey: key) }
    }

    private func noteFailure() {
        state.withLock { $0.failedAt = .now }
    }
}
