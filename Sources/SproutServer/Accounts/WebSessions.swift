import Crypto
import Foundation

/// The web app's sign-in sessions. The cookie holds a random token; the database holds only its SHA-256, so a
/// copy of the database cannot be turned into working cookies. Every server process on the database sees the
/// same sessions, and logout deletes the row, ending the session everywhere at once.
struct WebSessions: Sendable {
    static let cookieName = "sprout_session"
    static let lifetime: TimeInterval = 30 * 24 * 3600

    let executor: any SQLExecutor
    var clock = WallClock.system

    /// A new session for the account; the token goes into the cookie.
    func start(accountID: Int) async throws -> String {
        let now = clock.now
        let token = ServerSecrets.randomToken()
        _ = try await executor.write(
            """
            INSERT INTO web_sessions (token_hash, account_id, created_at, expires_at)
            VALUES (\(bind: Self.hash(token)), \(bind: accountID), \(bind: now), \(bind: now.addingTimeInterval(Self.lifetime)))
            """,
            as: SQLInt.self
        )
        return token
    }

    /// The account whose session the token is, if the session exists and has not expired.
    func account(forToken token: String) async throws -> Account? {
        let now = clock.now
        return try await executor.readFirst(
            SQLStatement("""
                SELECT \(raw: SQLAccountRepository.qualifiedColumns) FROM web_sessions JOIN accounts ON accounts.id = web_sessions.account_id
                WHERE web_sessions.token_hash = \(bind: Self.hash(token)) AND web_sessions.expires_at > \(bind: now)
                """).prepared(),  // every request of a signed-in browser asks this
            as: Account.self
        )
    }

    /// Ends the session (logout), and clears expired ones while at it.
    func end(token: String) async throws {
        let now = clock.now
        try await executor.writeAll([
            "DELETE FROM web_sessions WHERE token_hash = \(bind: Self.hash(token))",
            "DELETE FROM web_sessions WHERE expires_at <= \(bind: now)",
        ])
    }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
