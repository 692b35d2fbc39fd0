import Foundation

/// How many sign-ups (each a bcrypt hash and a new account) and vendor creations one client address may make per
/// hour, counted in `RateLimitLedger` so every server process shares the count (security review, point 12).
/// Failed sign-ups count too: they are what probes which usernames and emails exist.
struct AddressRateLimit: Sendable {
    enum Action: String, Sendable {
        case signUp = "sign-up"
        case vendorCreation = "vendor"
    }

    static let window: TimeInterval = 3600

    let ledger: RateLimitLedger
    /// `SIGNUPS_PER_ADDRESS_PER_HOUR`; 0 turns the limit off.
    let perHour: Int

    /// Counts one `action` from `address`; false when the address has used up its hour.
    func claim(_ action: Action, address: String, at now: Date) async throws -> Bool {
        guard perHour > 0 else { return true }
        return try await ledger.claim("\(action.rawValue):\(address)", limit: perHour, window: Self.window, at: now)
    }
}
