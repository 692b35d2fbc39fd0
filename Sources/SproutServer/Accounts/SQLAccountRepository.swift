import Foundation

/// Accounts in SQL, one statement per call, for SQLite and PostgreSQL alike.
struct SQLAccountRepository: Sendable {
    let executor: any SQLExecutor

    static let columns = "id, username, email, password_hash, blocked, created_at, updated_at, token_generation, kept_token_id"
    static let qualifiedColumns = "accounts.id, accounts.username, accounts.email, accounts.password_hash, accounts.blocked, accounts.created_at, accounts.updated_at, accounts.token_generation, accounts.kept_token_id"

    func find(id: Int) async throws -> Account? {
        // Every request with a Bearer token asks this: kept prepared.
        try await executor.readFirst(SQLStatement("SELECT \(Self.columns) FROM accounts WHERE id = $1", .int(id)).prepared(), as: Account.self)
    }

    func find(username: String) async throws -> Account? {
        try await executor.readFirst(SQLStatement("SELECT \(Self.columns) FROM accounts WHERE username = $1", .text(username)), as: Account.self)
    }

    func find(email: String) async throws -> Account? {
        try await executor.readFirst(SQLStatement("SELECT \(Self.columns) FROM accounts WHERE email = $1", .text(email.lowercased())), as: Account.self)
    }

    /// Inserts the account, or returns nil when its username or email is already taken — decided by the unique
    /// indexes, so two sign-ups racing for one name cannot both win.
    func create(username: String, email: String, passwordHash: String, at now: Date) async throws -> Account? {
        let statement = SQLStatement(
            """
            INSERT INTO accounts (username, email, password_hash, blocked, created_at, updated_at)
            VALUES ($1, $2, $3, NULL, $4, $4) ON CONFLICT DO NOTHING RETURNING \(Self.columns)
            """,
            .text(username), .text(email.lowercased()), .text(passwordHash), .date(now)
        )
        return try await executor.writeFirst(statement, as: Account.self)
    }

    /// Stores a new password and ends every other credential of the account: tokens of the current generation
    /// are refused from now on (all but `kept`, when it is a token) and web sessions are deleted (all but `kept`,
    /// when it is a session), in one transaction.
    func updatePassword(id: Int, passwordHash: String, keeping kept: KeptCredential, at now: Date) async throws -> Account? {
        let keptSession: String? = if case .session(let hash) = kept { hash } else { nil }
        let keptToken: String? = if case .token(let tokenID) = kept { tokenID } else { nil }
        let rows = try await executor.writeSequence(
            [
                SQLStatement(
                    "DELETE FROM web_sessions WHERE account_id = $1 AND token_hash <> $2",
                    .int(id), .text(keptSession ?? "")
                ),
                SQLStatement(
                    """
                    UPDATE accounts SET password_hash = $2, updated_at = $3, token_generation = token_generation + 1,
                      kept_token_id = $4 WHERE id = $1 RETURNING \(Self.columns)
                    """,
                    .int(id), .text(passwordHash), .date(now), keptToken.map(SQLValue.text) ?? .null
                ),
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
                SQLStatement("DELETE FROM web_sessions WHERE account_id = $1", .int(id)),
                SQLStatement(
                    """
                    UPDATE accounts SET blocked = $2, updated_at = $3, token_generation = token_generation + 1,
                      kept_token_id = NULL WHERE id = $1 RETURNING \(Self.columns)
                    """,
                    .int(id), .bool(blocked), .date(now)
                ),
            ],
            as: Account.self
        )
        return rows.first
    }

    /// Accounts in id order, `limit` from `afterID` on (for the administrator's list).
    func list(afterID: Int, limit: Int) async throws -> [Account] {
        try await executor.read(
            SQLStatement("SELECT \(Self.columns) FROM accounts WHERE id > $1 ORDER BY id LIMIT $2", .int(afterID), .int(limit)),
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
}

extension Account: SQLRowDecodable {
    init(row: some SQLRow) throws {
        self.init(
            id: try row.int(0),
            username: try row.string(1),
            email: try row.string(2),
            passwordHash: try row.string(3),
            blocked: row.isNull(4) ? nil : try row.bool(4),
            createdAt: try row.date(5),
            updatedAt: try row.date(6),
            tokenGeneration: try row.int(7),
            keptTokenID: row.isNull(8) ? nil : try row.string(8)
        )
    }
}
