import Foundation

/// Secrets that are generated once and then kept in the database, so every `sprout serve` on one database uses
/// the same one (the JWT key when `JWT_SECRET` is not set). They are kept sealed (`SecretSealer`).
struct ServerSecrets: Sendable {
    let executor: any SQLExecutor
    let sealer: SecretSealer

    /// The secret called `name`, made from `generate()` if none is stored yet, sealed at rest. One stored plain by
    /// an older Sprout is still read (`SecretsAtRest` seals it at the next start).
    func value(named name: String, generate: () -> String) async throws -> String {
        let purpose = Self.purpose(of: name)
        let stored = try await storedValue(named: name) { try sealer.seal(generate(), purpose: purpose) }
        return stored.hasPrefix(SecretSealer.prefix) ? try sealer.open(stored, purpose: purpose) : stored
    }

    static func purpose(of name: String) -> String { "sprout_secrets.\(name)" }

    /// The value stored as `name`, `generate()` being stored first if there is none. Two processes racing here
    /// both end up with the first one stored: the insert does nothing on conflict and the stored value is read back.
    func storedValue(named name: String, generate: () throws -> String) async throws -> String {
        _ = try await executor.write(
            "INSERT INTO sprout_secrets (name, value) VALUES (\(bind: name), \(bind: try generate())) ON CONFLICT (name) DO NOTHING",
            as: SQLInt.self
        )
        guard let stored = try await executor.readFirst("SELECT value FROM sprout_secrets WHERE name = \(bind: name)", as: SQLTextValue.self) else {
            throw SQLRowError.missingReturnedRow
        }
        return stored.value
    }

    /// 32 random bytes as base64url text.
    static func randomToken(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
