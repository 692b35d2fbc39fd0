import Foundation

/// How many products with pictures may be registered an hour (`MARKET_UPLOADS_PER_HOUR`), so that nobody can keep
/// the decoding pool busy for good (security review, point 1): per vendor, counted once its secret has been
/// checked (so a stranger who knows a vendor's identifier cannot use up its hour), and per client address, twice
/// that, counted before anything is read (several vendors may share an address). Rows of `RateLimitLedger`.
struct MarketUploadRate: Sendable {
    static let window: TimeInterval = 3600

    let ledger: RateLimitLedger
    /// 0 turns both limits off.
    let perHour: Int
    let clock: WallClock

    func claimForAddress(_ address: String) async throws {
        guard perHour > 0 else { return }
        guard try await ledger.claim("upload-address:\(address)", limit: 2 * perHour, window: Self.window, at: clock.now) else {
            throw MarketError.tooManyUploads
        }
    }

    func claimForVendor(_ vendorID: Int) async throws {
        guard perHour > 0 else { return }
        guard try await ledger.claim("upload-vendor:\(vendorID)", limit: perHour, window: Self.window, at: clock.now) else {
            throw MarketError.tooManyUploads
        }
    }
}
