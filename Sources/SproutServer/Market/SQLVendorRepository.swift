import Foundation

/// Vendors in SQL, for SQLite and PostgreSQL alike. An account has at most one vendor; names are unique
/// case-insensitively (`name_key`); identifiers are unique.
struct SQLVendorRepository: Sendable {
    let executor: any SQLExecutor

    static let columns = "id, account_id, name, identifier, secret, created_at"

    enum CreateFailure: Error {
        case alreadyAVendor
        case nameTaken
    }

    /// One INSERT; on a unique-key clash nothing is written and the clash is named.
    func create(accountID: Int, name: String, identifier: String, secret: String, at now: Date) async throws -> Result<MarketVendor, CreateFailure> {
        let statement = SQLStatement(
            """
            INSERT INTO market_vendors (account_id, name, name_key, identifier, secret, created_at)
            VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING \(Self.columns)
            """,
            .int(accountID), .text(name), .text(Self.nameKey(name)), .text(identifier), .text(secret), .date(now)
        )
        if let vendor = try await executor.writeFirst(statement, as: MarketVendor.self) { return .success(vendor) }
        return .failure(try await vendor(accountID: accountID) != nil ? .alreadyAVendor : .nameTaken)
    }

    func vendor(accountID: Int) async throws -> MarketVendor? {
        try await executor.readFirst(SQLStatement("SELECT \(Self.columns) FROM market_vendors WHERE account_id = $1", .int(accountID)), as: MarketVendor.self)
    }

    func vendor(identifier: String) async throws -> MarketVendor? {
        try await executor.readFirst(SQLStatement("SELECT \(Self.columns) FROM market_vendors WHERE identifier = $1", .text(identifier)), as: MarketVendor.self)
    }

    func vendor(name: String) async throws -> MarketVendor? {
        try await executor.readFirst(SQLStatement("SELECT \(Self.columns) FROM market_vendors WHERE name_key = $1", .text(Self.nameKey(name))), as: MarketVendor.self)
    }

    /// Replaces the secret; nil when the account is no vendor.
    func rotateSecret(accountID: Int, to secret: String) async throws -> MarketVendor? {
        try await executor.writeFirst(
            SQLStatement("UPDATE market_vendors SET secret = $2 WHERE account_id = $1 RETURNING \(Self.columns)", .int(accountID), .text(secret)),
            as: MarketVendor.self
        )
    }

    static func nameKey(_ name: String) -> String { name.precomposedStringWithCanonicalMapping.lowercased() }
}

extension MarketVendor: SQLRowDecodable {
    init(row: some SQLRow) throws {
        self.init(
            id: try row.int(0), accountID: try row.int(1), name: try row.string(2), identifier: try row.string(3),
            secret: try row.string(4), createdAt: try row.date(5)
        )
    }
}
