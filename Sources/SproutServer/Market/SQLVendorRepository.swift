import Foundation

/// Vendors in SQL, for SQLite and PostgreSQL alike. An account has at most one vendor; names are unique
/// case-insensitively (`name_key`); identifiers are unique. Secrets are kept sealed in `sealed_secret`
/// (`SecretSealer`); `secret` is empty, or holds the plain secret of a vendor an older Sprout made until
/// `SecretsAtRest` seals it at the next start.
struct SQLVendorRepository: Sendable {
    let executor: any SQLExecutor
    let sealer: SecretSealer

    /// What `SealedVendorRow` reads.
    static let columns = "id, account_id, name, identifier, secret, created_at, sealed_secret, disabled_at"
    static let secretPurpose = "market_vendors.secret"

    enum CreateFailure: Error {
        case alreadyAVendor
        case nameTaken
        case identifierTaken
        case idTaken
    }

    /// One INSERT; on a unique-key clash nothing is written and the clash is named. `id` is given only when an
    /// old app's compiled-in vendor id is imported; otherwise the database numbers the vendor.
    func create(
        accountID: Int, name: String, identifier: String, secret: String, id: Int? = nil, at now: Date,
        recording audit: ((_ made: SQLStatement, _ madeID: SQLStatement) -> [SQLStatement])? = nil
    ) async throws -> Result<MarketVendor, CreateFailure> {
        let sealed = try sealer.seal(secret, purpose: Self.secretPurpose)
        let chosenID: SQLStatement = id.map { ", \(bind: $0)" } ?? ""
        let statement: SQLStatement = """
            INSERT INTO market_vendors (account_id, name, name_key, identifier, secret, sealed_secret, created_at\(raw: id == nil ? "" : ", id"))
            VALUES (\(bind: accountID), \(bind: name), \(bind: Self.nameKey(name)), \(bind: identifier), '', \(bind: sealed), \(bind: now)\(chosenID))
            ON CONFLICT DO NOTHING RETURNING \(raw: Self.columns)
            """
        let written: SealedVendorRow?
        if let audit {
            // The sealed secret is unique (a fresh nonce each time): it finds this insert and nothing else.
            written = try await executor.writeSequence(
                [statement] + audit(
                    "EXISTS (SELECT 1 FROM market_vendors WHERE sealed_secret = \(bind: sealed))",
                    "(SELECT id FROM market_vendors WHERE sealed_secret = \(bind: sealed))"
                ) + ["SELECT \(raw: Self.columns) FROM market_vendors WHERE sealed_secret = \(bind: sealed)"],
                as: SealedVendorRow.self
            ).first
        } else {
            written = try await executor.writeFirst(statement, as: SealedVendorRow.self)
        }
        if let vendor = try written?.opened(with: sealer) {
            if id != nil, executor.dialect == .postgres {
                // An id chosen by hand does not move PostgreSQL's sequence; move it past every id in use, so the
                // next vendor the API makes does not collide. (SQLite's AUTOINCREMENT follows by itself.)
                _ = try await executor.write(
                    "SELECT setval(pg_get_serial_sequence('market_vendors', 'id'), (SELECT max(id) FROM market_vendors))", as: SQLInt.self
                )
            }
            return .success(vendor)
        }
        if try await vendor(accountID: accountID) != nil { return .failure(.alreadyAVendor) }
        if try await vendor(identifier: identifier) != nil { return .failure(.identifierTaken) }
        if let id, try await executor.readFirst("SELECT id FROM market_vendors WHERE id = \(bind: id)", as: SQLInt.self) != nil {
            return .failure(.idTaken)
        }
        return .failure(.nameTaken)
    }

    func vendor(accountID: Int) async throws -> MarketVendor? {
        try await vendor(where: "account_id = \(bind: accountID)")
    }

    func vendor(identifier: String) async throws -> MarketVendor? {
        try await vendor(where: "identifier = \(bind: identifier)")
    }

    func vendor(name: String) async throws -> MarketVendor? {
        try await vendor(where: "name_key = \(bind: Self.nameKey(name))")
    }

    /// Replaces the secret; nil when the account is no vendor.
    /// `audit`: statements written first in the same transaction (an administrator's entry).
    func rotateSecret(accountID: Int, to secret: String, recording audit: [SQLStatement] = []) async throws -> MarketVendor? {
        let sealed = try sealer.seal(secret, purpose: Self.secretPurpose)
        return try await executor.writeSequence(
            audit + ["UPDATE market_vendors SET secret = '', sealed_secret = \(bind: sealed) WHERE account_id = \(bind: accountID) RETURNING \(raw: Self.columns)"],
            as: SealedVendorRow.self
        ).first?.opened(with: sealer)
    }

    /// Seals the secrets an older Sprout stored plain; answers how many. Safe beside other processes: a row is
    /// sealed only while it is still plain.
    func sealPlainSecrets() async throws -> Int {
        let plain = try await executor.read(
            "SELECT \(raw: Self.columns) FROM market_vendors WHERE sealed_secret IS NULL", as: SealedVendorRow.self
        )
        for row in plain {
            let sealed = try sealer.seal(row.plainSecret, purpose: Self.secretPurpose)
            _ = try await executor.write(
                "UPDATE market_vendors SET secret = '', sealed_secret = \(bind: sealed) WHERE id = \(bind: row.vendor.id) AND sealed_secret IS NULL",
                as: SQLInt.self
            )
        }
        return plain.count
    }

    /// Every vendor in id order after `afterID`, at most `limit` (the console's list).
    func list(afterID: Int, limit: Int) async throws -> [MarketVendor] {
        try await executor.read(
            "SELECT \(raw: Self.columns) FROM market_vendors WHERE id > \(bind: afterID) ORDER BY id LIMIT \(bind: limit)", as: SealedVendorRow.self
        ).map { try $0.opened(with: sealer) }
    }

    private func vendor(where condition: SQLStatement) async throws -> MarketVendor? {
        try await executor.readFirst("SELECT \(raw: Self.columns) FROM market_vendors WHERE \(condition)", as: SealedVendorRow.self)?
            .opened(with: sealer)
    }

    static func nameKey(_ name: String) -> String { name.precomposedStringWithCanonicalMapping.lowercased() }
}

/// A vendor row as stored: the secret still sealed (or plain, from an older Sprout).
private struct SealedVendorRow: SQLRowDecodable {
    let vendor: MarketVendor
    let plainSecret: String
    let sealedSecret: String?

    init(row: some SQLRow) throws {
        plainSecret = try row.string("secret")
        sealedSecret = try row.optionalString("sealed_secret")
        vendor = MarketVendor(
            id: try row.int("id"), accountID: try row.int("account_id"), name: try row.string("name"),
            identifier: try row.string("identifier"), secret: "", createdAt: try row.date("created_at"),
            disabledAt: try row.optionalDate("disabled_at")
        )
    }

    func opened(with sealer: SecretSealer) throws -> MarketVendor {
        let secret = try sealedSecret.map { try sealer.open($0, purpose: SQLVendorRepository.secretPurpose) } ?? plainSecret
        return MarketVendor(
            id: vendor.id, accountID: vendor.accountID, name: vendor.name, identifier: vendor.identifier, secret: secret, createdAt: vendor.createdAt,
            disabledAt: vendor.disabledAt
        )
    }
}
