import Foundation

/// Accounts in SQL, one statement per call, for SQLite and PostgreSQL alike.
struct SQLAccountRepository: Sendable {
    let executor: any SQLExecutor

    /// What `Account(row:)` reads.
    static let columns = "id, username, email, password_hash, blocked, created_at, updated_at, token_generation, kept_token_id, confirmed, role, blocked_reason, last_login_at"
    static let qualifiedColumns = "accounts.id, accounts.username, accounts.email, accounts.password_hash, accounts.blocked, accounts.created_at, accounts.updated_at, accounts.token_generation, accounts.kept_token_id, accounts.confirmed, accounts.role, accounts.blocked_reason, accounts.last_login_at"

    /// Every request with a Bearer token asks this: on PostgreSQL, the lookups asked at the same time share
    /// statements (`KeyedLookup`).
    func find(id: Int) async throws -> Account? {
        try await executor.readKeyed(id, by: Self.byID)
    }

    static let byID = KeyedLookup<Account>(
        name: "accounts.byID",
        one: { id in "SELECT \(raw: columns) FROM accounts WHERE id = \(bind: id)" },
        many: { ids in "SELECT \(raw: columns) FROM accounts WHERE id = \(ids)" },
        key: \.id
    )

    func find(username: String) async throws -> Account? {
        try await executor.readFirst("SELECT \(raw: Self.columns) FROM accounts WHERE username = \(bind: username)", as: Account.self)
    }

    func find(email: String) async throws -> Account? {
        try await executor.readFirst("SELECT \(raw: Self.columns) FROM accounts WHERE email = \(bind: email.lowercased())", as: Account.self)
    }

    /// Inserts the account, or returns nil when its username or email is already taken — decided by the unique
    /// indexes, so two sign-ups racing for one name cannot both win.
    func create(username: String, email: String, passwordHash: String, confirmed: Bool = true, at now: Date) async throws -> Account? {
        let statement: SQLStatement = """
            INSERT INTO accounts (username, email, password_hash, blocked, created_at, updated_at, confirmed)
            VALUES (\(bind: username), \(bind: email.lowercased()), \(bind: passwordHash), NULL, \(bind: now), \(bind: now), \(bind: confirmed))
            ON CONFLICT DO NOTHING RETURNING \(raw: Self.columns)
            """
        return try await executor.writeFirst(statement, as: Account.self)
    }

    /// Stores a new password and ends every other credential of the account: tokens of the current generation
    /// are refused from now on (all but `kept`, when it is a token) and web sessions are deleted (all but `kept`,
    /// when it is a session), in one transaction.
    func updatePassword(id: Int, passwordHash: String, keeping kept: KeptCredential, at now: Date) async throws -> Account? {
        let rows = try await executor.writeSequence(
            [
                "DELETE FROM web_sessions WHERE account_id = \(bind: id) AND token_hash <> \(bind: kept.sessionHash ?? "")",
                """
                UPDATE accounts SET password_hash = \(bind: passwordHash), updated_at = \(bind: now),
                  token_generation = token_generation + 1, kept_token_id = \(bind: kept.tokenID)
                WHERE id = \(bind: id) RETURNING \(raw: Self.columns)
                """,
            ],
            as: Account.self
        )
        return rows.first
    }

    /// A new username, or nil when another account has it. The board's writer search follows the new name (its
    /// posts keep the folded writer name beside them, `BoardText.fold`).
    func changeUsername(id: Int, to username: String, at now: Date) async throws -> Account? {
        let free: SQLStatement = "NOT EXISTS (SELECT 1 FROM accounts AS other WHERE other.username = \(bind: username) AND other.id <> \(bind: id))"
        do {
            let rows = try await executor.writeSequence(
                [
                    "UPDATE board_posts SET writer_folded = \(bind: BoardText.fold(username)) WHERE account_id = \(bind: id) AND NOT is_anonymous AND \(free)",
                    "UPDATE accounts SET username = \(bind: username), updated_at = \(bind: now) WHERE id = \(bind: id) AND \(free) RETURNING \(raw: Self.columns)",
                ],
                as: Account.self
            )
            return rows.first
        } catch {
            // Two accounts renamed to one name at once: the unique index keeps it the first one's.
            if try await find(username: username).map({ $0.id != id }) == true { return nil }
            throw error
        }
    }

    /// Deletes the account and everything it holds. Most goes by `ON DELETE CASCADE` (sessions, codes, posts and
    /// the comments on them, its comments, the vendor with its products and image rows, board posts, diary
    /// entries and versions); the rest is named here: its todos and their counts (no foreign key: the shared
    /// list is `owner_id NULL`), its login-limiter window, the mails to it and the mail limits kept under its
    /// address. False when there was no such account. `audit` (the audit log's entry) runs first, in the same
    /// transaction.
    func delete(_ account: Account, recording audit: [SQLStatement] = []) async throws -> Bool {
        let rows = try await executor.writeSequence(
            audit + [
                "DELETE FROM todos WHERE owner_id = \(bind: account.id)",
                "DELETE FROM todo_counts WHERE owner_key = \(bind: account.id)",
                "DELETE FROM login_failures WHERE key = \(bind: LoginThrottle.Subject.account(account.id).key)",
                "DELETE FROM rate_limit_events WHERE key = \(bind: AccountRecovery.mailLimitKey(account.email))",
                "DELETE FROM mail_outbox WHERE recipient = \(bind: account.email)",
                "DELETE FROM accounts WHERE id = \(bind: account.id) RETURNING id",
            ],
            as: SQLInt.self
        )
        return !rows.isEmpty
    }

    /// "Sign out everywhere": every token of the account before now is refused and every web session ends, except
    /// `kept`, the caller's own credential.
    func revokeCredentials(id: Int, keeping kept: KeptCredential) async throws -> Account? {
        let rows = try await executor.writeSequence(
            [
                "DELETE FROM web_sessions WHERE account_id = \(bind: id) AND token_hash <> \(bind: kept.sessionHash ?? "")",
                """
                UPDATE accounts SET token_generation = token_generation + 1, kept_token_id = \(bind: kept.tokenID)
                WHERE id = \(bind: id) RETURNING \(raw: Self.columns)
                """,
            ],
            as: Account.self
        )
        return rows.first
    }

    /// Blocks or unblocks. Either way every token and web session of the account ends: a block so that nothing
    /// of the account works any more, an unblock so that tokens from before the block do not come back to life.
    func setBlocked(id: Int, _ blocked: Bool, at now: Date) async throws -> Account? {
        let rows = try await executor.writeSequence(
            [
                "DELETE FROM web_sessions WHERE account_id = \(bind: id)",
                """
                UPDATE accounts SET blocked = \(bind: blocked), updated_at = \(bind: now), token_generation = token_generation + 1,
                  kept_token_id = NULL WHERE id = \(bind: id) RETURNING \(raw: Self.columns)
                """,
            ],
            as: Account.self
        )
        return rows.first
    }

    /// When the account last logged in, for the console (one write per login, which costs a bcrypt anyway).
    func recordLogin(id: Int, at now: Date) async throws {
        _ = try await executor.write("UPDATE accounts SET last_login_at = \(bind: now) WHERE id = \(bind: id)", as: SQLInt.self)
    }

    /// Accounts in id order, `limit` from `afterID` on (for the administrator's list).
    func list(afterID: Int, limit: Int) async throws -> [Account] {
        try await executor.read(
            "SELECT \(raw: Self.columns) FROM accounts WHERE id > \(bind: afterID) ORDER BY id LIMIT \(bind: limit)",
            as: Account.self
        )
    }
}

/// The credential a password change leaves working: the caller's own.
enum KeptCredential: Sendable {
    /// A Bearer token, by its id (`AccountTokenClaims.tokenID`).
    case token(String)
    /// A web session, by the hash of its cookie (`WebSessions.hash`).
    case session(String)
    /// None: an administrator's reset ends them all.
    case none

    /// The caller's own credential.
    init(_ credential: Caller.Credential) {
        switch credential {
        case .bearerToken(let id): self = .token(id)
        case .sessionCookie(let token, _): self = .session(WebSessions.hash(token))
        }
    }

    var sessionHash: String? { if case .session(let hash) = self { hash } else { nil } }
    var tokenID: String? { if case .token(let id) = self { id } else { nil } }
}

extension Account: SQLRowDecodable {
    init(row: some SQLRow) throws {
        self.init(
            id: try row.int("id"),
            username: try row.string("username"),
            email: try row.string("email"),
            passwordHash: try row.string("password_hash"),
            blocked: try row.isNull("blocked") ? nil : try row.bool("blocked"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"),
            tokenGeneration: try row.int("token_generation"),
            keptTokenID: try row.optionalString("kept_token_id"),
            confirmed: try row.bool("confirmed"),
            role: AccountRole(rawValue: try row.string("role")) ?? .user,
            blockedReason: try row.optionalString("blocked_reason"),
            lastLoginAt: try row.optionalDate("last_login_at")
        )
    }
}
