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

    /// How stale a session's "last seen" may get before a request refreshes it: one write a minute at most.
    static let lastSeenResolution: TimeInterval = 60
    /// The longest `User-Agent` kept for the sessions page.
    static let longestDevice = 256

    /// A new session for the account; the token goes into the cookie. `device` (the `User-Agent`) and `address`
    /// are what the sessions page shows.
    func start(accountID: Int, device: String? = nil, address: String? = nil) async throws -> String {
        let now = clock.now
        let token = ServerSecrets.randomToken()
        _ = try await executor.write(
            """
            INSERT INTO web_sessions (token_hash, account_id, created_at, expires_at, device, address, last_seen_at)
            VALUES (\(bind: Self.hash(token)), \(bind: accountID), \(bind: now), \(bind: now.addingTimeInterval(Self.lifetime)),
              \(bind: device.map { String($0.prefix(Self.longestDevice)) }), \(bind: address), \(bind: now))
            """,
            as: SQLInt.self
        )
        return token
    }

    /// The account whose session the token is, if the session exists and has not expired, with when the session
    /// was last seen before this lookup. Its "last seen" moves when it is more than a minute old.
    func session(forToken token: String) async throws -> (account: Account, lastSeenAt: Date?)? {
        let now = clock.now
        let hash = Self.hash(token)
        guard let found = try await executor.readFirst(
            SQLStatement("""
                SELECT \(raw: SQLAccountRepository.qualifiedColumns), web_sessions.last_seen_at
                FROM web_sessions JOIN accounts ON accounts.id = web_sessions.account_id
                WHERE web_sessions.token_hash = \(bind: hash) AND web_sessions.expires_at > \(bind: now)
                """).prepared(),  // every request of a signed-in browser asks this
            as: SessionHolder.self
        ) else { return nil }
        if found.lastSeenAt.map({ now.timeIntervalSince($0) > Self.lastSeenResolution }) ?? true {
            try await executor.writeAll(["UPDATE web_sessions SET last_seen_at = \(bind: now) WHERE token_hash = \(bind: hash)"])
        }
        return (found.account, found.lastSeenAt)
    }

    /// The account's live sessions, most recently seen first.
    func list(accountID: Int) async throws -> [WebSessionSummary] {
        try await executor.read(
            """
            SELECT token_hash, created_at, expires_at, device, address, last_seen_at FROM web_sessions
            WHERE account_id = \(bind: accountID) AND expires_at > \(bind: clock.now)
            ORDER BY COALESCE(last_seen_at, created_at) DESC, token_hash LIMIT 200
            """,
            as: WebSessionSummary.self
        )
    }

    /// Ends one of the account's sessions by its public id; false when it has none such.
    func end(publicID: String, accountID: Int) async throws -> Bool {
        // Hex digits only, so the LIKE pattern has no wildcard but its own.
        guard publicID.count == WebSessionSummary.publicIDLength, publicID.allSatisfy(\.isHexDigit) else { return false }
        let ended = try await executor.write(
            """
            DELETE FROM web_sessions WHERE account_id = \(bind: accountID) AND token_hash LIKE \(bind: publicID.lowercased() + "%")
            RETURNING token_hash
            """,
            as: SQLTextValue.self
        )
        return !ended.isEmpty
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

/// A session row with its account, as a signed-in request reads it.
private struct SessionHolder: SQLRowDecodable {
    let account: Account
    let lastSeenAt: Date?

    init(row: some SQLRow) throws {
        account = try Account(row: row)
        lastSeenAt = try row.isNull("last_seen_at") ? nil : try row.date("last_seen_at")
    }
}

/// One web session as its owner sees it: an id that names it (the first 16 hex digits of its token's hash, which
/// says nothing about the token), the browser, the address it signed in from, and when it was last used.
struct WebSessionSummary: Sendable, SQLRowDecodable {
    static let publicIDLength = 16

    let tokenHash: String
    let createdAt: Date
    let expiresAt: Date
    let device: String?
    let address: String?
    let lastSeenAt: Date?

    var publicID: String { String(tokenHash.prefix(Self.publicIDLength)) }

    init(row: some SQLRow) throws {
        tokenHash = try row.string("token_hash")
        createdAt = try row.date("created_at")
        expiresAt = try row.date("expires_at")
        device = try row.optionalString("device")
        address = try row.optionalString("address")
        lastSeenAt = try row.isNull("last_seen_at") ? nil : try row.date("last_seen_at")
    }
}
