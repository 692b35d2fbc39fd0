import Foundation

/// What `sprout account …` and the console show of an account: never its password hash.
public struct AccountSummary: Sendable, Equatable {
    public let id: Int
    public let username: String
    public let email: String
    public let blocked: Bool
    public let blockedReason: String?
    public let role: AccountRole
    public let createdAt: Date
    public let updatedAt: Date
    public let lastLoginAt: Date?
}

public enum AccountAdministrationError: Error, CustomStringConvertible, Equatable {
    case notFound(String)
    case weakPassword(String)
    case invalid(String)
    case taken(String)
    /// The account changed while this change was being made, three times over.
    case busy(String)

    public var description: String {
        switch self {
        case .notFound(let reference): "No account matches '\(reference)' (give an id, a username or an email)."
        case .weakPassword(let reason), .invalid(let reason): reason
        case .taken(let what): "\(what) is already taken."
        case .busy(let reference): "'\(reference)' kept changing while this was being done; try again."
        }
    }
}

/// The administrator's work on accounts (`sprout account …` and the console), over the same repository the API
/// uses. Every change is written with its audit log entry in one transaction: the row is locked first, the entry is
/// written only while the row is as it was read, and the change only under the same condition, so there is never a
/// change without its entry or an entry without its change.
public struct AccountAdministration: Sendable {
    let accounts: SQLAccountRepository
    let hasher: PasswordHasher
    let deletion: AccountDeletion
    let audit: AuditTrail
    let mailer: Mailer
    let publicURL: String
    private var executor: any SQLExecutor { accounts.executor }

    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        accounts = SQLAccountRepository(executor: database.executor)
        hasher = PasswordHasher(cost: configuration.accounts.passwordHashCost)
        let images: any MarketImageStorage = switch configuration.market.imageStorage {
        case .files: FileImageStorage(dataDirectory: configuration.data.directory)
        case .database: DatabaseImageStorage(executor: database.executor)
        }
        deletion = AccountDeletion(accounts: accounts, images: images, logger: makeLogger(level: configuration.server.logLevel))
        audit = AuditTrail(executor: database.executor, retentionDays: configuration.admin.auditRetentionDays)
        mailer = Mailer(configuration.mail, logger: makeLogger(level: configuration.server.logLevel))
        publicURL = configuration.server.publicURL
    }

    /// With the default settings but bcrypt's cost: for tools that find, reset or block (deletion would look for
    /// image files in the default data directory).
    public init(database: SproutDatabase, passwordHashCost: UInt8 = 10) {
        var configuration = SproutConfiguration()
        configuration.accounts.passwordHashCost = passwordHashCost
        self.init(database: database, configuration: configuration)
    }

    /// Makes an account (confirmed) with a role; a random password, returned, unless one is given.
    public func create(
        username rawUsername: String, email rawEmail: String, password: String? = nil, role: AccountRole = .user, by actor: AuditActor
    ) async throws -> (account: AccountSummary, password: String) {
        let username = rawUsername.trimmingCharacters(in: .whitespaces)
        let email = rawEmail.trimmingCharacters(in: .whitespaces).lowercased()
        do {
            try AccountInput.checkUsername(username)
            try AccountInput.checkEmail(email)
        } catch {
            throw AccountAdministrationError.invalid(error.body.readableMessage)
        }
        let password = password ?? ServerSecrets.randomToken(byteCount: 12)
        try Self.checkAcceptable(password)
        let hash = try await hasher.hash(password)
        let now = Date().truncatedToMilliseconds
        let entry = AuditEntry(action: "account.create", target: "account", changes: [
            "username": .init(before: nil, after: username), "email": .init(before: nil, after: email),
            "role": .init(before: nil, after: role.rawValue),
        ])
        let mine: SQLStatement = "EXISTS (SELECT 1 FROM accounts WHERE username = \(bind: username) AND password_hash = \(bind: hash))"
        let recorded = try await executor.writeSequence(
            [
                """
                INSERT INTO accounts (username, email, password_hash, blocked, created_at, updated_at, confirmed, role)
                VALUES (\(bind: username), \(bind: email), \(bind: hash), NULL, \(bind: now), \(bind: now), TRUE, \(bind: role.rawValue))
                ON CONFLICT DO NOTHING
                """,
            ] + audit.prune(at: now) + [
                audit.record(entry, by: actor, at: now, when: mine, target: "'account:' || (SELECT id FROM accounts WHERE username = \(bind: username))"),
            ],
            as: SQLInt.self
        )
        guard !recorded.isEmpty, let account = try await accounts.find(username: username) else {
            let takenName = try await accounts.find(username: username) != nil
            throw AccountAdministrationError.taken(takenName ? "The username '\(username)'" : "The email '\(email)'")
        }
        return (AccountSummary(account), password)
    }

    /// Gives the account a role. Takes effect on every process from its next request (the role is read with the
    /// account on every request).
    public func setRole(_ reference: String, _ role: AccountRole, by actor: AuditActor) async throws -> AccountSummary {
        try await change(reference, by: actor) { account in
            guard account.role != role else { return nil }
            return Change(
                entry: AuditEntry(action: "account.role", target: "account:\(account.id)", changes: ["role": .init(before: account.role.rawValue, after: role.rawValue)]),
                expectation: "role = \(bind: account.role.rawValue)",
                statements: { expectation in
                    ["UPDATE accounts SET role = \(bind: role.rawValue), updated_at = \(bind: Date().truncatedToMilliseconds) WHERE id = \(bind: account.id) AND \(expectation) RETURNING \(raw: SQLAccountRepository.columns)"]
                }
            )
        }
    }

    /// Blocks (with a reason shown at its next login) or unblocks the account: it can no longer log in (or can
    /// again). Either way every token and web session of the account ends, so an unblock does not bring back the
    /// tokens from before the block.
    public func setBlocked(_ reference: String, _ blocked: Bool, reason rawReason: String? = nil, by actor: AuditActor) async throws -> AccountSummary {
        let reason = blocked ? rawReason.map { String($0.trimmingCharacters(in: .whitespacesAndNewlines).prefix(500)) }.flatMap { $0.isEmpty ? nil : $0 } : nil
        return try await change(reference, by: actor) { account in
            guard account.isBlocked != blocked || account.blockedReason != reason else { return nil }
            var changes: [String: AuditEntry.Change] = ["blocked": .init(before: String(account.isBlocked), after: String(blocked))]
            if account.blockedReason != reason { changes["reason"] = .init(before: account.blockedReason, after: reason) }
            return Change(
                entry: AuditEntry(action: blocked ? "account.block" : "account.unblock", target: "account:\(account.id)", changes: changes),
                expectation: "coalesce(blocked, FALSE) = \(bind: account.isBlocked) AND coalesce(blocked_reason, '') = \(bind: account.blockedReason ?? "")",
                statements: { expectation in
                    [
                        "DELETE FROM web_sessions WHERE account_id = \(bind: account.id) AND EXISTS (SELECT 1 FROM accounts WHERE id = \(bind: account.id) AND \(expectation))",
                        """
                        UPDATE accounts SET blocked = \(bind: blocked), blocked_reason = \(bind: reason), updated_at = \(bind: Date().truncatedToMilliseconds),
                          token_generation = token_generation + 1, kept_token_id = NULL
                        WHERE id = \(bind: account.id) AND \(expectation) RETURNING \(raw: SQLAccountRepository.columns)
                        """,
                    ]
                }
            )
        }
    }

    /// Sets a new password (a random one when `newPassword` is nil) and returns it. Every token and web session
    /// of the account ends.
    public func resetPassword(_ reference: String, to newPassword: String? = nil, by actor: AuditActor) async throws -> String {
        let password = newPassword ?? ServerSecrets.randomToken(byteCount: 12)
        try Self.checkAcceptable(password)
        let hash = try await hasher.hash(password)
        _ = try await change(reference, by: actor) { account in
            Change(
                entry: AuditEntry(action: "account.reset-password", target: "account:\(account.id)", changes: ["password": .init(before: "(set)", after: "(new)")]),
                expectation: "1 = 1",
                statements: { _ in
                    [
                        "DELETE FROM web_sessions WHERE account_id = \(bind: account.id)",
                        """
                        UPDATE accounts SET password_hash = \(bind: hash), updated_at = \(bind: Date().truncatedToMilliseconds),
                          token_generation = token_generation + 1, kept_token_id = NULL
                        WHERE id = \(bind: account.id) RETURNING \(raw: SQLAccountRepository.columns)
                        """,
                    ]
                }
            )
        }
        return password
    }

    /// Sends the account a password-reset mail, as `/account/forgot-password` would (the mail worker of a running
    /// `sprout serve` delivers it; without SMTP it is held in the outbox and logged). The code, the mail and the
    /// entry are one transaction. Nothing changes on the account until its owner uses the link.
    public func sendPasswordReset(_ reference: String, by actor: AuditActor) async throws -> AccountSummary {
        let account = try await account(reference)
        let code = AccountCodes.newCode()
        let now = Date().truncatedToMilliseconds
        let mail = AccountMails.passwordReset(to: account, code: code, publicURL: publicURL)
        let exists: SQLStatement = "EXISTS (SELECT 1 FROM accounts WHERE id = \(bind: account.id))"
        let entry = AuditEntry(action: "account.send-password-reset", target: "account:\(account.id)", changes: ["reset-mail": .init(before: nil, after: account.email)])
        let recorded = try await executor.writeSequence(
            [Self.lock(account.id), AccountCodes.store(code, accountID: account.id, purpose: .passwordReset, email: nil, at: now),
             mailer.statement(for: mail, at: now, onlyIf: exists)] + audit.prune(at: now) + [audit.record(entry, by: actor, at: now, when: exists)],
            as: SQLInt.self
        )
        guard !recorded.isEmpty else { throw AccountAdministrationError.notFound(reference) }
        mailer.queued(mail)
        return AccountSummary(account)
    }

    /// Ends every token and web session of the account ("sign out everywhere" on its behalf).
    public func signOutEverywhere(_ reference: String, by actor: AuditActor) async throws -> AccountSummary {
        try await change(reference, by: actor) { account in
            Change(
                entry: AuditEntry(action: "account.sign-out-everywhere", target: "account:\(account.id)", changes: ["sessions": .init(before: "(any)", after: "(none)")]),
                expectation: "1 = 1",
                statements: { _ in
                    [
                        "DELETE FROM web_sessions WHERE account_id = \(bind: account.id)",
                        "UPDATE accounts SET token_generation = token_generation + 1, kept_token_id = NULL WHERE id = \(bind: account.id) RETURNING \(raw: SQLAccountRepository.columns)",
                    ]
                }
            )
        }
    }

    /// Deletes the account and everything it holds in every app, with its image files (as `DELETE /users/me`).
    public func delete(_ reference: String, by actor: AuditActor) async throws -> AccountSummary {
        let account = try await account(reference)
        let now = Date().truncatedToMilliseconds
        let entry = AuditEntry(action: "account.delete", target: "account:\(account.id)", changes: [
            "username": .init(before: account.username, after: nil), "email": .init(before: account.email, after: nil),
        ])
        let exists: SQLStatement = "EXISTS (SELECT 1 FROM accounts WHERE id = \(bind: account.id))"
        let recording = [Self.lock(account.id)] + audit.prune(at: now) + [audit.record(entry, by: actor, at: now, when: exists)]
        guard try await deletion.delete(account, recording: recording) else { throw AccountAdministrationError.notFound(reference) }
        return AccountSummary(account)
    }

    /// Accounts in id order after `afterID`, at most `limit`.
    public func list(afterID: Int = 0, limit: Int = 100) async throws -> [AccountSummary] {
        try await accounts.list(afterID: afterID, limit: limit).map(AccountSummary.init)
    }

    /// Accounts whose username (any case) or email starts with `text`, in id order: the page of
    /// `limit` after skipping `offset`, with how many match in all. An empty text matches every account.
    public func search(_ text: String, offset: Int = 0, limit: Int = 50) async throws -> (accounts: [AccountSummary], total: Int) {
        let folded = text.trimmingCharacters(in: .whitespaces).lowercased()
        // The start of a username (any case) or of an email: two index ranges in byte order, so a search costs
        // the same at 100,000 accounts as at 10 (a substring LIKE scanned them all: p99 181 ms at 100,000 in
        // `scripts/bench --admin`). U+10FFFF's UTF-8 bytes sort after every other character's.
        let (username, email): (String, String) = executor.dialect == .postgres
            ? ("lower(username) COLLATE \"C\"", "email COLLATE \"C\"") : ("lower(username)", "email")
        let end = folded + "\u{10FFFF}"
        let matches: SQLStatement = folded.isEmpty
            ? "1 = 1"
            : "((\(raw: username) >= \(bind: folded) AND \(raw: username) < \(bind: end)) OR (\(raw: email) >= \(bind: folded) AND \(raw: email) < \(bind: end)))"
        let total = try await executor.readFirst("SELECT count(*) FROM accounts WHERE \(matches)", as: SQLInt.self)?.value ?? 0
        let page = try await executor.read(
            """
            SELECT \(raw: SQLAccountRepository.columns) FROM accounts WHERE \(matches)
            ORDER BY id LIMIT \(bind: min(max(limit, 1), 500)) OFFSET \(bind: max(offset, 0))
            """,
            as: Account.self
        )
        return (page.map(AccountSummary.init), total)
    }

    /// The account named by an id, a username or an email address (any case).
    public func find(_ reference: String) async throws -> AccountSummary {
        AccountSummary(try await account(reference))
    }

    /// The account named by an id, a username or an email (`notFound` otherwise).
    func account(_ reference: String) async throws -> Account {
        if let id = Int(reference), let account = try await accounts.find(id: id) { return account }
        if let account = try await accounts.find(username: reference) { return account }
        if let account = try await accounts.find(email: reference) { return account }
        throw AccountAdministrationError.notFound(reference)
    }

    // MARK: - Audited changes

    /// One audited change of an account row: the entry, what must still hold of the row as it was read
    /// (`expectation`, SQL over `accounts`' columns), and the statements that make the change given that
    /// expectation, the last one an `UPDATE accounts … WHERE … AND expectation RETURNING` the columns.
    struct Change {
        let entry: AuditEntry
        let expectation: SQLStatement
        let statements: (SQLStatement) -> [SQLStatement]
    }

    /// Locks the row, writes the entry while the expectation holds, then the change under the same expectation:
    /// the row is locked, so both see it alike and the change returns its row exactly when the entry was written.
    /// Read again and retried when the row changed since it was read; nil from `make` means nothing to change.
    private func change(_ reference: String, by actor: AuditActor, _ make: (Account) throws -> Change?) async throws -> AccountSummary {
        for _ in 0..<3 {
            let account = try await account(reference)
            guard let change = try make(account) else { return AccountSummary(account) }
            let now = Date().truncatedToMilliseconds
            let holds: SQLStatement = "EXISTS (SELECT 1 FROM accounts WHERE id = \(bind: account.id) AND \(change.expectation))"
            let rows = try await executor.writeSequence(
                [Self.lock(account.id)] + audit.prune(at: now) + [audit.record(change.entry, by: actor, at: now, when: holds)]
                    + change.statements(change.expectation),
                as: Account.self
            )
            if let updated = rows.first { return AccountSummary(updated) }
        }
        throw AccountAdministrationError.busy(reference)
    }

    /// Takes the account row's lock for the rest of the transaction (PostgreSQL; SQLite has one writer).
    private static func lock(_ id: Int) -> SQLStatement {
        "UPDATE accounts SET updated_at = updated_at WHERE id = \(bind: id)"
    }

    private static func checkAcceptable(_ password: String) throws {
        guard AccountInput.isAcceptablePassword(password) else {
            throw AccountAdministrationError.weakPassword(
                "A password must be \(AccountInput.passwordBytes.lowerBound) to \(AccountInput.passwordBytes.upperBound) bytes long, with at most three '$'."
            )
        }
    }
}

extension AccountSummary {
    init(_ account: Account) {
        self.init(
            id: account.id, username: account.username, email: account.email, blocked: account.isBlocked,
            blockedReason: account.blockedReason, role: account.role, createdAt: account.createdAt,
            updatedAt: account.updatedAt, lastLoginAt: account.lastLoginAt
        )
    }
}
