import Foundation
import Logging

/// Deletes an account with everything it holds (`SQLAccountRepository.delete`), then its products' image files.
/// Used by `DELETE /users/me` and `sprout account delete`.
struct AccountDeletion: Sendable {
    let accounts: SQLAccountRepository
    /// The market's images, whose files go with the account.
    let images: any MarketImageStorage
    let logger: Logger

    /// False when the account was already gone. `audit`: statements written first in the same transaction (the
    /// audit log's entry of an administrator's deletion).
    func delete(_ account: Account, recording audit: [SQLStatement] = []) async throws -> Bool {
        let files = try await MarketImageFileName.ofProducts(
            where: "market_products.vendor_id IN (SELECT id FROM market_vendors WHERE account_id = \(bind: account.id))", executor: accounts.executor
        )
        guard try await accounts.delete(account, recording: audit) else { return false }
        do {
            try await images.delete(files)
        } catch {
            // The rows are gone; files left behind are orphans that `sprout doctor --fix` removes.
            logger.error("account deleted, but some of its image files were not", metadata: ["account": "\(account.id)", "error": "\(error)"])
        }
        return true
    }
}
