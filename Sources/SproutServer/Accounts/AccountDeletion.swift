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
        let files = try await imageFiles(of: account.id, executor: accounts.executor)
        guard try await accounts.delete(account, recording: audit) else { return false }
        do {
            try await images.delete(files)
        } catch {
            // The rows are gone; files left behind are orphans that `sprout doctor --fix` removes.
            logger.error("account deleted, but some of its image files were not", metadata: ["account": "\(account.id)", "error": "\(error)"])
        }
        return true
    }

    /// The names of every image file of the account's products (originals and thumbnails).
    private func imageFiles(of accountID: Int, executor: any SQLExecutor) async throws -> [MarketImageFileName] {
        try await executor.read(
            """
            SELECT market_images.storage_key, market_images.format FROM market_images
            JOIN market_products ON market_products.id = market_images.product_id
            JOIN market_vendors ON market_vendors.id = market_products.vendor_id
            WHERE market_vendors.account_id = \(bind: accountID)
            """,
            as: ImageRow.self
        ).flatMap { MarketImageFileName.pair(key: $0.key, format: $0.format) }
    }

    private struct ImageRow: SQLRowDecodable {
        let key: String
        let format: MarketImageFormat

        init(row: some SQLRow) throws {
            key = try row.string("storage_key")
            format = MarketImageFormat(rawValue: try row.string("format")) ?? .jpeg
        }
    }
}
