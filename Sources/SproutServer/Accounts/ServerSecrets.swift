import Foundation

/// Secrets that are generated once and then kept in the database, so every `sprout serve` on one database uses
/// the same one (the JWT key when `JWT_SECRET` is not set).
struct ServerSecrets: Sendable {
    let executor: any SQLExecutor

    /// The secret called `name`, made from `generate()` if none is stored yet. Two processes racing here both end
    /// up with the first one stored: the insert does nothing on conflict and the stored value is read back.
    func value(named name: String, generate: () -> String) async throws -> String {
        _ = try await executor.write(
            SQLStatement("INSERT INTO sprout_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", .text(name), .text(generate())),
            as: SQLInt.self
        )
        guard let stored = try await executor.readFirst(SQLStatement("SELECT value FROM sprout_secrets WHERE name = $1", .text(name)), as: SQLTextValue.self) else {
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
