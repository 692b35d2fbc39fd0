import Foundation

/// Vendors in SQL, for SQLite and PostgreSQL alike. An account has at most one vendor; names are unique
/// case-insensitively (`name_key`); identifiers are unique.
struct SQLVendorRepository: Sendable {
    let executor: any SQLExecutor

    static let columns = "id, account_id, name, identifier, secret, created_at"

    enum CreateFailure: Error {
        case alreadyAVendor
        case nameTaken
        case identifierTaken
        case idTaken
    }

    /// One INSERT; on a unique-key clash nothing is written and the clash is named. `id` is given only when an
    /// old app's compiled-in vendor id is imported; otherwise the database numbers the vendor.
    func create(
        accountID: Int, name: String, identifier: String, secret: String, id: Int? = nil, at now: Date
    ) async throws -> Result<MarketVendor, CreateFailure> {
        var values: [SQLValue] = [.int(accountID), .text(name), .text(Self.nameKey(name)), .text(identifier), .text(secret), .date(now)]
        if let id { values.append(.int(id)) }
        let statement = SQLStatement(sql: """
            INSERT INTO market_vendors (account_id, name, name_key, identifier, secret, created_at\(id == nil ? "" : ", id"))
            VALUES ($1, $2, $3, $4, $5, $6\(id == nil ? "" : ", $7")) ON CONFLICT DO NOTHING RETURNING \(Self.columns)
            """, binds: values)
        if let vendor = try await executor.writeFirst(statement, as: MarketVendor.self) {
            if id != nil, executor.dialect == .postgres {
                // An id chosen by hand does not move PostgreSQL's sequence; move it past every id in use, so the
                // next vendor the API makes does not collide. (SQLite's AUTOINCREMENT follows by itself.)
                _ = try await executor.write(SQLStatement(
                    "SELECT setval(pg_get_serial_sequence('market_vendors', 'id'), (SELECT max(id) FROM market_vendors))"
                ), as: SQLInt.self)
            }
            return .success(vendor)
        }
        if try await vendor(accountID: accountID) != nil { return .failure(.alreadyAVendor) }
        if try await vendor(identifier: identifier) != nil { return .failure(.identifierTaken) }
        if let id, try await executor.readFirst(SQLStatement("SELECT id FROM market_vendors WHERE id = $1", .int(id)), as: SQLInt.self) != nil {
            return .failure(.idTaken)
        }
        return .failure(.nameTaken)
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
