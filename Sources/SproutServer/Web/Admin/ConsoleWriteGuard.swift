import Crypto
import Foundation
import Hummingbird

/// What every console write must pass besides the gate (`AdminGate`) and the site-wide origin check
/// (`CrossSiteRequestGuard`, which refuses a cookie-authenticated POST whose `Origin`/`Referer` is not this site):
/// the form token of the session, and the acting account's rate limit.
///
/// The form token is an HMAC of a fixed text keyed by the session's token: only a page this session loaded can
/// hold it (the cookie is HttpOnly; the database keeps only the token's SHA-256, which is no key to this), it
/// needs no storage, and it ends with the session.
struct ConsoleWriteGuard: Sendable {
    let ledger: RateLimitLedger
    let clock: WallClock

    /// Console writes one account may make in `window`.
    static let writesPerWindow = 60
    static let window: TimeInterval = 60
    /// The form field that carries the token.
    static let fieldName = "csrf"

    enum Refusal: Error, Equatable {
        case formToken
        case rateLimited
    }

    static func formToken(sessionToken: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("sprout admin console form".utf8), using: SymmetricKey(data: Data(sessionToken.utf8)))
        return code.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Compared in time that does not depend on where the first difference is.
    static func matches(_ candidate: String?, sessionToken: String) -> Bool {
        let expected = Array(formToken(sessionToken: sessionToken).utf8)
        guard let candidate, candidate.utf8.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(candidate.utf8, expected) { difference |= a ^ b }
        return difference == 0
    }

    /// Checks the token first (a forged form costs no rate-limit event), then counts the write. Throws a
    /// `Refusal`, or the database's error when the count could not be kept.
    func check(_ fields: FormFields, sessionToken: String, accountID: Int) async throws {
        guard Self.matches(fields[Self.fieldName]?.asText, sessionToken: sessionToken) else { throw Refusal.formToken }
        let allowed = try await ledger.claim("admin-write:\(accountID)", limit: Self.writesPerWindow, window: Self.window, at: clock.now)
        guard allowed else { throw Refusal.rateLimited }
    }
}
