import Foundation
import Crypto
import JWTKit

/// The Strapi users-permissions JWT: HS256, payload `{id, iat, exp}`, valid for 30 days. The key is `JWT_SECRET`,
/// or a secret generated once and kept in the database, so tokens outlive restarts and every server process on
/// one database accepts the others' tokens.
actor AccountTokens {
    static let lifetime: TimeInterval = 30 * 24 * 3600

    private let configuredSecret: String?
    private let secrets: ServerSecrets
    private var keys: JWTKeyCollection?

    init(configuredSecret: String?, secrets: ServerSecrets) {
        self.configuredSecret = configuredSecret
        self.secrets = secrets
    }

    func issue(accountID: Int, at date: Date = Date()) async throws -> String {
        // Whole seconds, as JavaScript's jsonwebtoken writes `iat` and `exp`.
        let now = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let payload = AccountTokenPayload(
            id: accountID,
            iat: IssuedAtClaim(value: now),
            exp: ExpirationClaim(value: now.addingTimeInterval(Self.lifetime))
        )
        return try await loadedKeys().sign(payload)
    }

    /// The account id a token names, or nil when it is malformed, signed with another key or expired.
    func accountID(from token: String) async throws -> Int? {
        let keys = try await loadedKeys()
        do {
            return try await keys.verify(token, as: AccountTokenPayload.self).id
        } catch {
            // Whatever is wrong with it (framing, signature, claims, expiry), the token names no one.
            return nil
        }
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

struct AccountTokenPayload: JWTPayload {
    let id: Int
    let iat: IssuedAtClaim
    let exp: ExpirationClaim

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
