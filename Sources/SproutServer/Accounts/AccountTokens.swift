import Foundation
import Crypto
import JWTKit

/// The Strapi users-permissions JWT: HS256, payload `{id, iat, exp}`, valid for 30 days. The key is `JWT_SECRET`,
/// or a secret generated once and kept in the database, so tokens outlive restarts and every server process on
/// one database accepts the others' tokens.
///
/// Sprout adds `gen` (the account's token generation) and `jti` (the token's own id), which clients never read:
/// a revocation moves the account's generation, and the authenticator, which reads the account row on every
/// request anyway, refuses older tokens on every node without a read of its own (`Account.accepts`).
actor AccountTokens {
    static let lifetime: TimeInterval = 30 * 24 * 3600

    private let configuredSecret: String?
    private let secrets: ServerSecrets
    private let clock: WallClock
    private var keys: JWTKeyCollection?

    init(configuredSecret: String?, secrets: ServerSecrets, clock: WallClock = .system) {
        self.configuredSecret = configuredSecret
        self.secrets = secrets
        self.clock = clock
    }

    /// A token for the account, of its current generation, issued now.
    func issue(for account: Account) async throws -> String {
        try await issue(accountID: account.id, generation: account.tokenGeneration, at: clock.now)
    }

    func issue(accountID: Int, generation: Int, at date: Date, lifetime: TimeInterval = lifetime) async throws -> String {
        // Whole seconds, as JavaScript's jsonwebtoken writes `iat` and `exp`.
        let now = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let payload = AccountTokenPayload(
            id: accountID,
            iat: IssuedAtClaim(value: now),
            exp: ExpirationClaim(value: now.addingTimeInterval(lifetime)),
            gen: generation,
            jti: ServerSecrets.randomToken(byteCount: 12)
        )
        return try await loadedKeys().sign(payload)
    }

    /// What a token says, or nil when it is malformed, signed with another key, expired, or made to live longer
    /// than 30 days (which only a holder of the key could have made).
    func claims(of token: String) async throws -> AccountTokenClaims? {
        let keys = try await loadedKeys()
        let payload: AccountTokenPayload
        do {
            payload = try await keys.verify(token, as: AccountTokenPayload.self)
        } catch {
            // Whatever is wrong with it (framing, signature, claims), the token names no one.
            return nil
        }
        guard (try? payload.exp.verifyNotExpired(currentDate: clock.now)) != nil else { return nil }
        return AccountTokenClaims(
            accountID: payload.id,
            generation: payload.gen ?? 0,
            // Tokens from before `jti` are told apart by their own digest.
            tokenID: payload.jti ?? "sha256:" + WebSessions.hash(token)
        )
    }

    private func loadedKeys() async throws -> JWTKeyCollection {
        if let keys { return keys }
        let secret: String
        if let configuredSecret {
            secret = configuredSecret
        } else {
            secret = try await secrets.value(named: "jwt", generate: { ServerSecrets.randomToken(byteCount: 48) })
        }
        // Another call may have loaded them while this one waited for the database; either is the same key.
        if let keys { return keys }
        let collection = JWTKeyCollection()
        await collection.add(hmac: Self.key(from: secret), digestAlgorithm: .sha256)
        keys = collection
        return collection
    }
}

extension AccountTokens {
    /// HS256 wants a key of at least 32 bytes (jwt-kit asserts it). `JWT_SECRET` is checked for that length at
    /// start; a shorter secret given in code is stretched through SHA-256 rather than crash the server.
    static func key(from secret: String) -> HMACKey {
        let bytes = Array(secret.utf8)
        guard bytes.count < 32 else { return HMACKey(from: bytes) }
        return HMACKey(key: SymmetricKey(data: SHA256.hash(data: bytes)))
    }
}

/// What the authenticator needs of a verified token.
struct AccountTokenClaims: Sendable, Equatable {
    let accountID: Int
    /// The account's token generation when the token was issued; 0 for tokens from before generations.
    let generation: Int
    /// The token's `jti`, or for an older token without one, `sha256:` and the digest of the whole token.
    let tokenID: String
}

struct AccountTokenPayload: JWTPayload {
    let id: Int
    let iat: IssuedAtClaim
    let exp: ExpirationClaim
    let gen: Int?
    let jti: String?

    struct LifetimeTooLong: Error {}

    /// Expiry is checked by `AccountTokens.claims(of:)`, against the application's clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {
        // Sprout never issues a longer token, so a longer one was made with a leaked key: refuse it.
        guard exp.value.timeIntervalSince(iat.value) <= AccountTokens.lifetime else { throw LifetimeTooLong() }
    }
}
