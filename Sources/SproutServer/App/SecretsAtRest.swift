import Logging

/// Run at start, after the migrations, by `sprout serve` and by every command that touches vendors: checks that
/// this process's secrets key is the one the database's secrets were sealed with — a process with another key
/// refuses to start rather than fail every vendor request — then seals what an older Sprout stored plain (vendor
/// secrets, the generated JWT key). Safe to run by several processes at once, and again.
public struct SecretsAtRest: Sendable {
    static let keyCheckName = "secrets-key-check"

    let sealer: SecretSealer
    let executor: any SQLExecutor

    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        self.init(sealer: SecretSealer(configuration), executor: database.executor)
    }

    init(sealer: SecretSealer, executor: any SQLExecutor) {
        self.sealer = sealer
        self.executor = executor
    }

    public func prepare(logger: Logger) async throws {
        let secrets = ServerSecrets(executor: executor, sealer: sealer)
        let check = try sealer.keyCheck()
        guard try await secrets.storedValue(named: Self.keyCheckName, generate: { check }) == check else {
            throw SecretSealingError.otherKey(source: sealer.source)
        }
        let jwtSealed = try await sealPlainJWTKey()
        let vendorsSealed = try await SQLVendorRepository(executor: executor, sealer: sealer).sealPlainSecrets()
        if jwtSealed || vendorsSealed > 0 {
            logger.info("sealed the secrets an older Sprout kept plain", metadata: ["vendors": "\(vendorsSealed)", "jwtKey": "\(jwtSealed)"])
        }
    }

    /// The generated JWT key, if an older Sprout stored it plain; true when it was sealed now.
    private func sealPlainJWTKey() async throws -> Bool {
        let name = "jwt"
        guard let stored = try await executor.readFirst(
            "SELECT value FROM sprout_secrets WHERE name = \(bind: name)", as: SQLTextValue.self
        )?.value, !stored.hasPrefix(SecretSealer.prefix) else { return false }
        let sealed = try sealer.seal(stored, purpose: ServerSecrets.purpose(of: name))
        let updated = try await executor.write(
            "UPDATE sprout_secrets SET value = \(bind: sealed) WHERE name = \(bind: name) AND value = \(bind: stored) RETURNING 1",
            as: SQLInt.self
        )
        return !updated.isEmpty
    }
}
