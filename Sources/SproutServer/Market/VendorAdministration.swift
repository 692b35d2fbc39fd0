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

/// The administrator's commands on vendors (`sprout vendor create|show|rotate-secret`), through the same rules
/// as the API.
public struct VendorAdministration: Sendable {
    let accounts: AccountAdministration
    let vendors: MarketVendors

    /// Vendor secrets are sealed with `configuration`'s key (`SECRETS_KEY` or the data directory's key file).
    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        self.init(database: database, sealer: SecretSealer(configuration))
    }

    init(database: SproutDatabase, sealer: SecretSealer) {
        accounts = AccountAdministration(database: database)
        vendors = MarketVendors(repository: SQLVendorRepository(executor: database.executor, sealer: sealer))
    }

    /// Makes the account a vendor named `name`, keeping any `credentials` given (an old app's compiled-in ones).
    public func create(
        account reference: String, name: String, credentials: ImportedVendorCredentials = ImportedVendorCredentials()
    ) async throws -> VendorSummary {
        let account = try await accounts.account(reference)
        do {
            return VendorSummary(try await vendors.create(accountID: account.id, name: name, credentials: credentials))
        } catch let error as MarketError {
            throw VendorAdministrationError.refused(error.message)
        }
    }

    /// The vendor with this name, or the vendor of the account named.
    public func find(_ reference: String) async throws -> VendorSummary {
        VendorSummary(try await vendor(reference))
    }

    /// Issues a new secret; the old one stops working at once.
    public func rotateSecret(_ reference: String) async throws -> VendorSummary {
        let vendor = try await vendor(reference)
        return VendorSummary(try await vendors.rotateSecret(accountID: vendor.accountID))
    }

    private func vendor(_ reference: String) async throws -> MarketVendor {
        if let vendor = try await vendors.repository.vendor(name: reference) { return vendor }
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
            accountID: vendor.accountID, createdAt: vendor.createdAt
        )
    }
}
