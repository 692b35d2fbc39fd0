import Foundation
import Testing

/// The secrets key as an operator meets it: a key file made in the data directory on first use, the same key
/// needed by every command on the database, and a clear refusal otherwise.
@Suite struct SecretsKeyCommandLineTests {
    @Test func theKeyFileIsMadeOwnerOnlyAndACommandWithAnotherKeyIsRefusedClearly() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let seeded = try await SproutProcess.run([
            "seed", "--todos", "0", "--accounts", "1", "--posts", "1", "--comments", "0", "--products", "0",
            "--board-posts", "0", "--diary-entries", "0", "--data-dir", data,
        ])
        #expect(seeded.status == 0, "\(seeded.errors)")
        let vendor = try await SproutProcess.run(["vendor", "create", "--account", "demo1", "--name", "열쇠상회", "--secret", "password1234", "--data-dir", data])
        #expect(vendor.status == 0, "\(vendor.errors)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: data + "/secrets.key")[.posixPermissions] as? NSNumber).intValue
        #expect(mode & 0o777 == 0o600)

        let otherKey = try await SproutProcess.run(
            ["vendor", "show", "열쇠상회", "--data-dir", data], environment: ["SECRETS_KEY": "another key of at least thirty-two bytes"]
        )
        #expect(otherKey.status != 0)
        #expect(otherKey.errors.contains("sealed with another key") && otherKey.errors.contains("SECRETS_KEY"), "\(otherKey.errors)")
        #expect(!otherKey.output.contains("password1234"))

        let sameKey = try await SproutProcess.run(["vendor", "show", "열쇠상회", "--data-dir", data])
        #expect(sameKey.status == 0 && sameKey.output.contains("secret:     password1234"), "\(sameKey.output) \(sameKey.errors)")
    }
}
