import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import SproutServer

/// A newcomer's first minutes with the `sprout` command: an address to click, a hint on an empty database, clear
/// refusals of bad ports, and demo accounts they can sign in to.
@Suite(.serialized) struct FirstMinutesTests {
    @Test func serveRefusesAPortOutsideOneTo65535() async throws {
        for port in ["99999", "0", "-5"] {  // "=" so that -5 is read as a value, not an option
            let data = SproutProcess.temporaryDataDirectory()
            let result = try await SproutProcess.run(["serve", "--port=\(port)", "--data-dir", data])
            #expect(result.status != 0 && result.errors.contains("from 1 to 65535"), "\(port): \(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: data + "/sprout.sqlite"))
        }
        let fromEnvironment = try await SproutProcess.run(["serve", "--data-dir", SproutProcess.temporaryDataDirectory()], environment: ["PORT": "70000"])
        #expect(fromEnvironment.status != 0 && fromEnvironment.errors.contains("PORT must be a number from 1 to 65535"))
    }

    @Test func aMisspeltSettingStopsServeBeforeTheDatabaseIsTouched() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        let result = try await SproutProcess.run(["serve", "--port", "1", "--data-dir", data], environment: ["MARKET_MAX_IMAGE_BYTE": "400000"])
        #expect(result.status != 0 && result.errors.contains("unknown setting MARKET_MAX_IMAGE_BYTE (did you mean MARKET_MAX_IMAGE_BYTES?)"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: data + "/sprout.sqlite"))
    }

    @Test func aTakenPortIsOneClearLineBeforeTheDatabaseIsTouched() async throws {
        let taken = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(taken.localAddress?.port)
        let data = SproutProcess.temporaryDataDirectory()
        let result = try await SproutProcess.run(["serve", "--port", "\(port)", "--data-dir", data])
        try await taken.close()
        #expect(result.status != 0)
        let lines = result.errors.split(separator: "\n")
        #expect(lines == ["Error: port \(port) is in use; choose another with --port or PORT"], "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: data), "the database was not created")
    }

    @Test func serveShowsItsAddressTheSeedHintAndSeedShowsItsAccounts() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let port = try SproutProcess.freePort()
        let fresh = try SproutProcess(["serve", "--port", "\(port)", "--data-dir", data])
        try await fresh.waitForOutput(containing: "sprout seed")
        #expect(fresh.standardOutput.contains("open http://127.0.0.1:\(port)/ in a browser"), "\(fresh.standardOutput)")
        try await fresh.stop()
        // The database holds the JWT key and vendor secrets: the directory and its files are the server's alone.
        #expect(try Self.mode(of: data) == 0o700)
        #expect(try Self.mode(of: data + "/sprout.sqlite") == 0o600)

        let seeded = try await SproutProcess.run([
            "seed", "--todos", "2", "--accounts", "1", "--posts", "1", "--comments", "0", "--products", "0",
            "--board-posts", "0", "--diary-entries", "0", "--data-dir", data,
        ])
        #expect(seeded.status == 0, "\(seeded.errors)")
        #expect(seeded.output.contains("Demo accounts: demo1") && seeded.output.contains("sign in with the password"))
        #expect(seeded.output.contains("sprout account reset-password demo1 --password"), "\(seeded.output)")

        // An old market app's compiled-in credentials, imported from the command line.
        let vendor = try await SproutProcess.run([
            "vendor", "create", "--account", "demo1", "--name", "새싹상회", "--identifier", "CD706A3E-66DB-11EC-9626-796401F2341A",
            "--secret", "password", "--vendor-id", "58", "--data-dir", data,
        ])
        #expect(vendor.status == 0, "\(vendor.errors)")
        #expect(vendor.output.contains("vendor id:  58") && vendor.output.contains("identifier: cd706a3e-66db-11ec-9626-796401f2341a"), "\(vendor.output)")
        let badSecret = try await SproutProcess.run([
            "vendor", "create", "--account", "demo1", "--name", "둘째", "--secret", "short", "--data-dir", data,
        ])
        #expect(badSecret.status != 0 && badSecret.errors.contains("secret must be 8 to 64"), "\(badSecret.errors)")

        // With content, the hint is gone; every interface is reached at the loopback address.
        let again = try SproutProcess(["serve", "--port", "\(port)", "--hostname", "0.0.0.0", "--data-dir", data])
        try await again.waitForOutput(containing: "in a browser")
        try await Task.sleep(for: .milliseconds(300))
        #expect(again.standardOutput.contains("http://127.0.0.1:\(port)/") && !again.standardOutput.contains("sprout seed"), "\(again.standardOutput)")
        try await again.stop()
    }

    private static func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }

    /// A data directory made by an earlier Sprout (0755) is narrowed when the database opens it.
    @Test func anExistingDataDirectoryIsNarrowedTo0700() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let migrated = try await SproutProcess.run(["migrate", "--data-dir", data])
        #expect(migrated.status == 0, "\(migrated.errors)")
        #expect(try Self.mode(of: data) == 0o700)
    }
}

/// Security review point 15: with its database down, a starting server ignored SIGTERM and said so only at info.
@Suite struct DatabaseDownAtStartTests {
    @Test func aServerWaitingForItsDatabaseWarnsAndStopsOnSIGTERM() async throws {
        // Port 1 on loopback: nothing listens there, so every connection is refused.
        let waiting = try SproutProcess(["serve", "--port", "\(try SproutProcess.freePort())", "--data-dir", SproutProcess.temporaryDataDirectory()],
                                        environment: ["DATABASE_URL": "postgres://sprout:secret@127.0.0.1:1/sprout", "LOG_LEVEL": "warning"])
        // The first warning comes once a check has waited 5 s (the log is flushed when the process ends).
        try await Task.sleep(for: .seconds(7))
        #expect(waiting.process.isRunning)
        let signalled = Date()
        waiting.process.terminate()
        let status = try await waiting.exit(within: .seconds(20))
        let log = waiting.standardOutput + waiting.standardError
        // Timed by the server's own log line, not by when this test noticed the exit: in the parallel suite the test
        // process's polling was once starved for seconds (11.7 s measured here, while the server had stopped).
        let stoppedAt = try #require(Self.time(ofLineContaining: "Sprout stopped before its database answered", in: log), "\(log)")
        #expect(stoppedAt.timeIntervalSince(signalled.addingTimeInterval(-1)) < 5, "SIGTERM ended the wait at once: \(log)")
        #expect(log.contains("warning") && log.contains("database not reachable yet") && !log.contains("secret@"), "\(log)")
        #expect(status == 0, "\(waiting.standardError)")
    }

    /// The timestamp (whole seconds) that starts the log line holding `text`.
    static func time(ofLineContaining text: String, in log: String) -> Date? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains(text) }),
              let stamp = line.split(separator: " ").first
        else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: String(stamp))
    }
}
