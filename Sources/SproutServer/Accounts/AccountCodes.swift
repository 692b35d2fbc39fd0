import Foundation

/// The codes mailed for a password reset or an email confirmation: 256 random bits, kept only as their SHA-256
/// (a copy of the database holds no working code), single use, valid for an hour.
struct AccountCodes: Sendable {
    enum Purpose: String, Sendable {
        case passwordReset = "password-reset"
        case emailConfirmation = "email-confirmation"
    }

    struct Holder: Sendable, SQLRowDecodable {
        let accountID: Int
        /// The address a confirmation code confirms (the account's, or a new one it is changing to).
        let email: String?

        init(row: some SQLRow) throws {
            accountID = try row.int("account_id")
            email = try row.optionalString("email")
        }
    }

    static let lifetime: TimeInterval = 3600

    let executor: any SQLExecutor

    static func newCode() -> String { ServerSecrets.randomToken() }

    static func hash(_ code: String) -> String { WebSessions.hash(code) }

    /// The statement storing `code` for the account (none when `accountID` names no account: the same work is
    /// done for an unknown address, so timing does not tell them apart).
    static func store(_ code: String, accountID: Int, purpose: Purpose, email: String?, at now: Date) -> SQLStatement {
        """
        INSERT INTO account_codes (code_hash, account_id, purpose, email, created_at, expires_at)
        SELECT \(bind: hash(code)), id, \(bind: purpose.rawValue), \(bind: email), \(bind: now), \(bind: now.addingTimeInterval(lifetime))
        FROM accounts WHERE id = \(bind: accountID)
        """
    }

    /// Who a live code belongs to, without using it up.
    func holder(of code: String, purpose: Purpose, at now: Date) async throws -> Holder? {
        try await executor.readFirst(
            """
            SELECT account_id, email FROM account_codes
            WHERE code_hash = \(bind: Self.hash(code)) AND purpose = \(bind: purpose.rawValue) AND expires_at > \(bind: now)
            """,
            as: Holder.self
        )
    }

    /// The condition "this code is still live", for statements that must only act while it is.
    static func isLive(_ code: String, purpose: Purpose, at now: Date) -> SQLStatement {
        """
        EXISTS (SELECT 1 FROM account_codes WHERE code_hash = \(bind: hash(code)) AND purpose = \(bind: purpose.rawValue)
          AND expires_at > \(bind: now))
        """
    }
}
