import Foundation
import SproutWire

/// What `sprout vendor …` shows: the vendor's credentials and the account it belongs to.
public struct VendorSummary: Sendable, Equatable {
    public let id: Int
    public let name: String
    public let identifier: String
    public let secret: String
    public let accountID: Int
    public let createdAt: Date
    public let disabled: Bool
}

public enum VendorAdministrationError: Error, CustomStringConvertible, Equatable {
    case notAVendor(String)
    case refused(String)

    public var description: String {
        switch self {
        case .notAVendor(let reference): "No vendor belongs to '\(reference)' (give the vendor's name, or the account's id, username or email)."
        case .refused(let reason): reason
        }
    }
}

/// The administrator's work on vendors (`sprout vendor …` and the console), through the same rules as the API;
/// each change with its audit entry in one transaction.
public struct VendorAdministration: Sendable {
    let accounts: AccountAdministration
    let vendors: MarketVendors
    let audit: AuditTrail
    private var executor: any SQLExecutor { vendors.repository.executor }

    /// Vendor secrets are sealed with `configuration`'s key (`SECRETS_KEY` or the data directory's key file).
    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        self.init(database: database, sealer: SecretSealer(configuration), configuration: configuration)
    }

    init(database: SproutDatabase, sealer: SecretSealer, configuration: SproutConfiguration = SproutConfiguration()) {
        accounts = AccountAdministration(database: database, configuration: configuration)
        vendors = MarketVendors(repository: SQLVendorRepository(executor: database.executor, sealer: sealer))
        audit = AuditTrail(database: database, configuration: configuration)
    }

    /// Makes the account a vendor named `name`, keeping any `credentials` given (an old app's compiled-in ones).
    public func create(
        account reference: String, name: String, credentials: ImportedVendorCredentials = ImportedVendorCredentials(), by actor: AuditActor
    ) async throws -> VendorSummary {
        let account = try await accounts.account(reference)
        let now = Date().truncatedToMilliseconds
        let entry = AuditEntry(action: "vendor.create", target: "vendor", changes: [
            "account": .init(before: nil, after: String(account.id)), "name": .init(before: nil, after: name.trimmingWhitespace),
        ])
        do {
            return VendorSummary(try await vendors.create(accountID: account.id, name: name, credentials: credentials) { made, madeID in
                audit.prune(at: now) + [audit.record(entry, by: actor, at: now, when: made, target: "'vendor:' || \(madeID)")]
            })
        } catch let error as MarketError {
            throw VendorAdministrationError.refused(error.message)
        }
    }

    /// Vendors in id order after `afterID`, at most `limit`.
    public func list(afterID: Int = 0, limit: Int = 100) async throws -> [VendorSummary] {
        try await vendors.repository.list(afterID: afterID, limit: min(max(limit, 1), 1_000)).map(VendorSummary.init)
    }

    /// The vendor with this name, or the vendor of the account named.
    public func find(_ reference: String) async throws -> VendorSummary {
        VendorSummary(try await vendor(reference))
    }

    /// Issues a new secret; the old one stops working at once.
    public func rotateSecret(_ reference: String, by actor: AuditActor) async throws -> VendorSummary {
        let vendor = try await vendor(reference)
        let now = Date().truncatedToMilliseconds
        let entry = AuditEntry(action: "vendor.rotate-secret", target: "vendor:\(vendor.id)", changes: ["secret": .init(before: "(old)", after: "(new)")])
        return VendorSummary(try await vendors.rotateSecret(
            accountID: vendor.accountID,
            recording: audit.prune(at: now) + [
                audit.record(entry, by: actor, at: now, when: "EXISTS (SELECT 1 FROM market_vendors WHERE id = \(bind: vendor.id))"),
            ]
        ))
    }

    /// Disables a vendor (it can change no product; its products stay listed) or enables it again.
    public func setDisabled(_ reference: String, _ disabled: Bool, by actor: AuditActor) async throws -> VendorSummary {
        let vendor = try await vendor(reference)
        guard (vendor.disabledAt != nil) != disabled else { return VendorSummary(vendor) }
        let now = Date().truncatedToMilliseconds
        let before: SQLStatement = disabled ? "disabled_at IS NULL" : "disabled_at IS NOT NULL"
        let rows = try await executor.writeSequence(
            ["UPDATE market_vendors SET disabled_at = disabled_at WHERE id = \(bind: vendor.id)"] + audit.prune(at: now) + [
                audit.record(
                    AuditEntry(action: disabled ? "vendor.disable" : "vendor.enable", target: "vendor:\(vendor.id)",
                               changes: ["disabled": .init(before: String(!disabled), after: String(disabled))]),
                    by: actor, at: now, when: "EXISTS (SELECT 1 FROM market_vendors WHERE id = \(bind: vendor.id) AND \(before))"
                ),
                "UPDATE market_vendors SET disabled_at = \(bind: disabled ? now : nil) WHERE id = \(bind: vendor.id) AND \(before) RETURNING id",
            ],
            as: SQLInt.self
        )
        _ = rows
        return VendorSummary(try await self.vendor(reference))
    }

    private func vendor(_ reference: String) async throws -> MarketVendor {
        if let vendor = try await vendors.repository.vendor(name: reference) { return vendor }
        if let id = Int(reference), let vendor = try await vendors.repository.list(afterID: id - 1, limit: 1).first, vendor.id == id { return vendor }
        guard let account = try? await accounts.account(reference),
              let vendor = try await vendors.repository.vendor(accountID: account.id)
        else { throw VendorAdministrationError.notAVendor(reference) }
        return vendor
    }
}

extension VendorSummary {
    init(_ vendor: MarketVendor) {
        self.init(
            id: vendor.id, name: vendor.name, identifier: vendor.identifier, secret: vendor.secret,
            accountID: vendor.accountID, createdAt: vendor.createdAt, disabled: vendor.disabledAt != nil
        )
    }
}
