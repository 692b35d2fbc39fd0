import Foundation

/// Accounts in SQL, one statement per call, for SQLite and PostgreSQL alike.
struct SQLAccountRepository: Sendable {
    let executor: any SQLExecutor

    static let columns = "id, username, email, password_hash, blocked, created_at, updated_at"
    static let qualifiedColumns = "accounts.id, accounts.username, accounts.email, accounts.password_hash, accounts.blocked, accounts.created_at, accounts.updated_at"

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

    func updatePassword(id: Int, passwordHash: String, at now: Date) async throws -> Account? {
        let statement = SQLStatement(
            "UPDATE accounts SET password_hash = $2, updated_at = $3 WHERE id = $1 RETURNING \(Self.columns)",
            .int(id), .text(passwordHash), .date(now)
        )
        return try await executor.writeFirst(statement, as: Account.self)
    }

    /// Blocks or unblocks; a block also ends the account's browser sessions (its tokens fail at the next use).
    func setBlocked(id: Int, _ blocked: Bool, at now: Date) async throws -> Account? {
        let statement = SQLStatement(
            "UPDATE accounts SET blocked = $2, updated_at = $3 WHERE id = $1 RETURNING \(Self.columns)",
            .int(id), .bool(blocked), .date(now)
        )
        let account = try await executor.writeFirst(statement, as: Account.self)
        if blocked, account != nil {
            _ = try await executor.write(SQLStatement("DELETE FROM web_sessions WHERE account_id = $1", .int(id)), as: SQLInt.self)
        }
        return account
    }

    /// Accounts in id order, `limit` from `afterID` on (for the administrator's list).
    func list(afterID: Int, limit: Int) async throws -> [Account] {
        try await executor.read(
            SQLStatement("SELECT \(Self.columns) FROM accounts WHERE id > $1 ORDER BY id LIMIT $2", .int(afterID), .int(limit)),
            as: Account.self
        )
    }
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
            updatedAt: try row.date(6)
        )
    }
}
