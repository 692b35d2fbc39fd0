import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import SproutServer

/// Vendor secrets and the generated JWT key are sealed in the database under a key kept outside it (issue 25,
/// point 11): a copy of the database alone holds neither.
@Suite struct SecretsAtRestTests {
    @Test func aVendorSecretIsStoredSealedAndStillShownToItsVendor() async throws {
        try await withTestApp { client, database in
            let vendor = try await client.makeVendor("sealed")
            let row = try #require(try await database.executor.readFirst(
                SQLStatement("SELECT secret, sealed_secret FROM market_vendors WHERE id = $1", .int(vendor.id)), as: StoredSecrets.self
            ))
            #expect(row.plain == "")
            #expect(row.sealed?.hasPrefix(SecretSealer.prefix) == true && row.sealed?.contains(vendor.secret) == false)
            let shown = try await client.send(.get, "/api/vendors/me", headers: vendor.account.bearer)
            #expect(shown.json?["secret"]?.string == vendor.secret)
            // The secret still works where the apps send it.
            let product = try await client.registerProduct(as: vendor)
            #expect(product["id"]?.int != nil)
            let rotated = try await client.send(.post, "/api/vendors/me/secret", headers: vendor.account.bearer)
            let newSecret = try #require(rotated.json?["secret"]?.string)
            let after = try #require(try await database.executor.readFirst(
                SQLStatement("SELECT secret, sealed_secret FROM market_vendors WHERE id = $1", .int(vendor.id)), as: StoredSecrets.self
            ))
            #expect(after.plain == "" && after.sealed != row.sealed && after.sealed?.contains(newSecret) == false)
        }
    }

    @Test func theGeneratedJWTKeyIsStoredSealed() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("keyholder")
            let stored = try #require(try await database.executor.readFirst(
                SQLStatement("SELECT value FROM sprout_secrets WHERE name = 'jwt'"), as: SQLTextValue.self
            )).value
            #expect(stored.hasPrefix(SecretSealer.prefix))
            let key = try await ServerSecrets(executor: database.executor, sealer: .forTests).value(named: "jwt") { "unused" }
            #expect(!stored.contains(key))
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .ok)
        }
    }

    @Test func secretsAnOlderSproutKeptPlainAreSealedAtStartAndKeepWorking() async throws {
        try await withTestApp { client, database in
            let vendor = try await client.makeVendor("older")
            let account = try await client.signUp("oldtoken")
            // As an older Sprout left them: the vendor secret and the JWT key in plain text.
            let jwtKey = try await ServerSecrets(executor: database.executor, sealer: .forTests).value(named: "jwt") { "unused" }
            try await database.executor.writeAll([
                SQLStatement("UPDATE market_vendors SET secret = $2, sealed_secret = NULL WHERE id = $1", .int(vendor.id), .text(vendor.secret)),
                SQLStatement("UPDATE sprout_secrets SET value = $1 WHERE name = 'jwt'", .text(jwtKey)),
            ])
            // Still read while plain.
            #expect(try await client.send(.get, "/api/vendors/me", headers: vendor.account.bearer).json?["secret"]?.string == vendor.secret)

            try await SecretsAtRest(sealer: .forTests, executor: database.executor).prepare(logger: testLogger())
            let row = try #require(try await database.executor.readFirst(
                SQLStatement("SELECT secret, sealed_secret FROM market_vendors WHERE id = $1", .int(vendor.id)), as: StoredSecrets.self
            ))
            #expect(row.plain == "" && row.sealed?.hasPrefix(SecretSealer.prefix) == true)
            let jwt = try #require(try await database.executor.readFirst(
                SQLStatement("SELECT value FROM sprout_secrets WHERE name = 'jwt'"), as: SQLTextValue.self
            )).value
            #expect(jwt.hasPrefix(SecretSealer.prefix))
            #expect(try await client.send(.get, "/api/vendors/me", headers: vendor.account.bearer).json?["secret"]?.string == vendor.secret)
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .ok, "tokens signed before still verify")
            // Again: nothing left to do, nothing changed.
            try await SecretsAtRest(sealer: .forTests, executor: database.executor).prepare(logger: testLogger())
            #expect(try await client.send(.get, "/api/vendors/me", headers: vendor.account.bearer).json?["secret"]?.string == vendor.secret)
        }
    }

    @Test func aProcessWithAnotherKeyRefusesToStartOnTheDatabase() async throws {
        try await withTestApp { client, database in
            _ = try await client.makeVendor("firstkey")
            let other = SecretSealer(.text("another key of at least thirty-two bytes"))
            await #expect(throws: SecretSealingError.self) {
                try await SecretsAtRest(sealer: other, executor: database.executor).prepare(logger: testLogger())
            }
            let app = try database.secondProcess { $0.data.secretsKey = "another key of at least thirty-two bytes" }
            await #expect(throws: (any Error).self) {
                try await app.test(.router) { _ in try app.throwIfStartFailed() }
            }
        }
    }

    @Test func aSealedSecretOpensOnlyWithItsKeyAndPurpose() throws {
        let sealer = SecretSealer.forTests
        let sealed = try sealer.seal("password", purpose: "market_vendors.secret")
        #expect(try sealer.open(sealed, purpose: "market_vendors.secret") == "password")
        #expect(throws: SecretSealingError.self) { try sealer.open(sealed, purpose: "sprout_secrets.jwt") }
        #expect(throws: SecretSealingError.self) { try SecretSealer(.text("another key of at least thirty-two bytes")).open(sealed, purpose: "market_vendors.secret") }
        #expect(try sealer.seal("password", purpose: "p") != sealer.seal("password", purpose: "p"), "a fresh nonce each time")
    }

    @Test func theKeyFileIsMadeOnceOwnerOnlyAndEveryProcessReadsTheSameKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("secrets.key").path
        // Processes starting together on one data directory all end up with one key.
        let checks = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { try SecretSealer(.file(path: path)).keyCheck() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(checks.count == 1)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
        #expect(mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["secrets.key"], "no temporary file left")
        #expect(try SecretSealer(.file(path: path)).keyCheck() == checks.first)
        try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: SecretSealingError.self) { try SecretSealer(.file(path: path)).keyCheck() }
    }

    @Test func secretsKeyComesFromTheEnvironmentAndMustBeLongEnough() throws {
        #expect(try SproutConfiguration.fromEnvironment([:]).data.secretsKey == nil)
        let key = "0123456789abcdef0123456789abcdef"
        #expect(try SproutConfiguration.fromEnvironment(["SECRETS_KEY": key]).data.secretsKey == key)
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["SECRETS_KEY": "short"]) }
    }
}

private struct StoredSecrets: SQLRowDecodable {
    let plain: String
    let sealed: String?

    init(row: some SQLRow) throws {
        plain = try row.string(0)
        sealed = row.isNull(1) ? nil : try row.string(1)
    }
}
