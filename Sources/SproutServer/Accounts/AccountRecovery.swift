import Foundation

/// Strapi v3's password reset and email confirmation by mail: codes from `AccountCodes`, mails through the outbox
/// (`Mailer`). Asking never reveals whether an address has an account: the answer and the work done are the same
/// either way, and both are counted against the asking address and the address asked about.
struct AccountRecovery: Sendable {
    /// Mails one client address may ask for per hour (resets and confirmations together).
    static let mailsPerClientPerHour = 10
    /// Mails one email address may be sent per hour, whoever asks.
    static let mailsPerEmailPerHour = 3

    let accounts: SQLAccountRepository
    let codes: AccountCodes
    let ledger: RateLimitLedger
    let hasher: PasswordHasher
    let mailer: Mailer
    let publicURL: String
    let clock: WallClock

    private var executor: any SQLExecutor { codes.executor }

    /// `POST /auth/forgot-password`: a reset mail to the account with this email, if there is one and it is not
    /// blocked. Throws only for a malformed address or a spent limit.
    func requestPasswordReset(email rawEmail: String, client: String) async throws {
        let email = try Self.checkedEmail(rawEmail)
        try await claimMail(to: email, client: client)
        let account = try await accounts.find(email: email).flatMap { $0.isBlocked ? nil : $0 }
        let code = AccountCodes.newCode()
        let now = clock.now
        // An unknown address runs the same two statements, which then insert nothing.
        let mail = account.map { AccountMails.passwordReset(to: $0, code: code, publicURL: publicURL) }
        try await executor.writeAll([
            AccountCodes.store(code, accountID: account?.id ?? -1, purpose: .passwordReset, email: nil, at: now),
            queue(mail, forAccount: account?.id ?? -1, at: now),
        ])
        if let mail { mailer.queued(mail) }
    }

    /// `POST /auth/reset-password`: sets the password the code's mail was for, ends every token and web session of
    /// the account and voids its other reset codes, in one transaction. The mail reached the address, so it counts
    /// as confirmed too. The code is checked before the new
    /// password is hashed, so a wrong code costs no bcrypt.
    func resetPassword(code: String, password: String) async throws -> Account {
        guard let holder = try await codes.holder(of: code, purpose: .passwordReset, at: clock.now) else { throw StrapiError.codeInvalid }
        let hash = try await hasher.hash(password)
        let now = clock.now
        let live = AccountCodes.isLive(code, purpose: .passwordReset, at: now)
        let deleted = try await executor.writeSequence(
            [
                """
                UPDATE accounts SET password_hash = \(bind: hash), updated_at = \(bind: now.truncatedToMilliseconds),
                  token_generation = token_generation + 1, kept_token_id = NULL, confirmed = TRUE
                WHERE id = \(bind: holder.accountID) AND \(live)
                """,
                "DELETE FROM web_sessions WHERE account_id = \(bind: holder.accountID) AND \(live)",
                // Earlier codes are void once one is used; the used one is among them.
                "DELETE FROM account_codes WHERE account_id = \(bind: holder.accountID) AND purpose = 'password-reset' AND \(live) RETURNING code_hash",
            ],
            as: SQLTextValue.self
        )
        // Another request used the code in the meantime: nothing was changed here.
        guard deleted.contains(where: { $0.value == AccountCodes.hash(code) }), let account = try await accounts.find(id: holder.accountID) else {
            throw StrapiError.codeInvalid
        }
        return account
    }

    /// `POST /auth/send-email-confirmation`: a confirmation mail to the account with this email, unless it is
    /// already confirmed (answered the same way, so it reveals nothing).
    func requestEmailConfirmation(email rawEmail: String, client: String) async throws -> String {
        let email = try Self.checkedEmail(rawEmail, missing: .badRequest("missing.email"), malformed: .badRequest("wrong.email"))
        try await claimMail(to: email, client: client)
        let account = try await accounts.find(email: email).flatMap { $0.isBlocked || $0.confirmed ? nil : $0 }
        try await sendConfirmation(to: account, address: email)
        return email
    }

    /// Queues a confirmation of `address` for `account` (its own address at sign-up, or a new one it changes to);
    /// with no account, the same statements insert nothing.
    func sendConfirmation(to account: Account?, address: String) async throws {
        let code = AccountCodes.newCode()
        let now = clock.now
        let mail = account.map { AccountMails.emailConfirmation(username: $0.username, address: address, code: code, publicURL: publicURL) }
        try await executor.writeAll([
            AccountCodes.store(code, accountID: account?.id ?? -1, purpose: .emailConfirmation, email: address, at: now),
            queue(mail, forAccount: account?.id ?? -1, at: now),
        ])
        if let mail { mailer.queued(mail) }
    }

    /// `GET /auth/email-confirmation?confirmation=…`: marks the address confirmed (and makes it the account's,
    /// when it was a change). False for an unknown, used or expired code, or an address taken in the meantime.
    func confirmEmail(code: String) async throws -> Bool {
        let now = clock.now
        guard let holder = try await codes.holder(of: code, purpose: .emailConfirmation, at: now), let email = holder.email else { return false }
        let live = AccountCodes.isLive(code, purpose: .emailConfirmation, at: now)
        do {
            let deleted = try await executor.writeSequence(
                [
                    """
                    UPDATE accounts SET confirmed = TRUE, email = \(bind: email), updated_at = \(bind: now.truncatedToMilliseconds)
                    WHERE id = \(bind: holder.accountID) AND \(live)
                      AND NOT EXISTS (SELECT 1 FROM accounts AS other WHERE other.email = \(bind: email) AND other.id <> \(bind: holder.accountID))
                    """,
                    // Used up only when the address is now the account's: one taken in the meantime leaves it unused.
                    """
                    DELETE FROM account_codes WHERE code_hash = \(bind: AccountCodes.hash(code))
                      AND EXISTS (SELECT 1 FROM accounts WHERE id = \(bind: holder.accountID) AND email = \(bind: email) AND confirmed)
                    RETURNING code_hash
                    """,
                ],
                as: SQLTextValue.self
            )
            return !deleted.isEmpty
        } catch {
            // Two accounts confirming one address at once: the unique index keeps it the first one's.
            if try await accounts.find(email: email).map({ $0.id != holder.accountID }) == true { return false }
            throw error
        }
    }

    /// The outbox row for `mail`, inserted only when `accountID` names an account (nothing for an unknown one).
    private func queue(_ mail: OutgoingMail?, forAccount accountID: Int, at now: Date) -> SQLStatement {
        let placeholder = OutgoingMail(recipient: "", subject: "", body: "", purpose: "none")
        return mailer.statement(
            for: mail ?? placeholder, at: now,
            onlyIf: "EXISTS (SELECT 1 FROM accounts WHERE id = \(bind: mail == nil ? -1 : accountID))"
        )
    }

    /// Counts one mail against the asking client and the address; throws the rate limit when either is spent.
    private func claimMail(to email: String, client: String) async throws {
        let now = clock.now
        guard try await ledger.claim("mail-client:\(client)", limit: Self.mailsPerClientPerHour, window: 3600, at: now),
            try await ledger.claim(Self.mailLimitKey(email), limit: Self.mailsPerEmailPerHour, window: 3600, at: now)
        else { throw StrapiError.mailRateLimited }
    }

    /// The rate-limit key under which mails to `email` are counted (an account's deletion removes it).
    static func mailLimitKey(_ email: String) -> String { "mail-to:" + email }

    private static func checkedEmail(
        _ raw: String, missing: StrapiError = .emailMissing, malformed: StrapiError = .emailFormat
    ) throws(StrapiError) -> String {
        let email = raw.trimmingWhitespace.lowercased()
        guard !email.isEmpty else { throw missing }
        guard email.count <= AccountInput.emailMaximumLength, AccountInput.isEmailAddress(email) else { throw malformed }
        return email
    }
}
