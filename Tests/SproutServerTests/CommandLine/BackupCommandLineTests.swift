import Foundation
import Testing
@testable import SproutServer

/// `sprout backup` and `sprout restore` as an operator runs them (SQLite in temporary data directories).
@Suite struct BackupCommandLineTests {
    @Test func backupPrintsItsPathLastAndRestoreNeedsTheKeyAnEmptyTargetOrForce() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        let restored = SproutProcess.temporaryDataDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: data)
            try? FileManager.default.removeItem(atPath: restored)
        }
        let seeded = try await SproutProcess.run([
            "seed", "--todos", "5", "--accounts", "1", "--posts", "1", "--comments", "0", "--products", "1",
            "--board-posts", "1", "--diary-entries", "0", "--data-dir", data,
        ], limit: .seconds(120))
        #expect(seeded.status == 0, "\(seeded.errors)")

        let backup = try await SproutProcess.run(["backup", "--data-dir", data])
        #expect(backup.status == 0, "\(backup.errors)")
        let archive = try #require(backup.output.split(separator: "\n").last.map(String.init))
        #expect(archive.hasPrefix(data + "/backups/sprout-backup-") && archive.hasSuffix(".tar"), "\(backup.output)")
        #expect(FileManager.default.fileExists(atPath: archive))
        #expect(backup.output.contains("secrets.key"), "the key's absence is said: \(backup.output)")

        let withoutKey = try await SproutProcess.run(["restore", archive, "--data-dir", restored])
        #expect(withoutKey.status != 0)
        #expect(withoutKey.errors.contains("--secrets-key-file"), "\(withoutKey.errors)")
        #expect(!FileManager.default.fileExists(atPath: restored))

        let restore = try await SproutProcess.run(["restore", archive, "--data-dir", restored, "--secrets-key-file", data + "/secrets.key"])
        #expect(restore.status == 0, "\(restore.errors)")
        #expect(restore.output.contains("restored"), "\(restore.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: restored + "/secrets.key")) == Data(contentsOf: URL(fileURLWithPath: data + "/secrets.key")))
        let vendor = try await SproutProcess.run(["vendor", "show", "demo1", "--data-dir", restored])
        #expect(vendor.status == 0 && vendor.output.contains("secret:"), "\(vendor.output) \(vendor.errors)")

        let again = try await SproutProcess.run(["restore", archive, "--data-dir", restored])
        #expect(again.status != 0)
        #expect(again.errors.contains("not empty") && again.errors.contains("--force"), "\(again.errors)")
        let forced = try await SproutProcess.run(["restore", archive, "--data-dir", restored, "--force"])
        #expect(forced.status == 0, "\(forced.errors)")

        try await Task.sleep(for: .milliseconds(10))
        let kept = try await SproutProcess.run(["backup", "--data-dir", data, "--keep", "1"])
        #expect(kept.status == 0, "\(kept.errors)")
        let archives = try FileManager.default.contentsOfDirectory(atPath: data + "/backups").filter { $0.hasSuffix(".tar") }
        #expect(archives.count == 1 && kept.output.hasSuffix(archives[0] + "\n"), "\(archives) \(kept.output)")
        // Each backup is in the audit log under the command line's name, with the archive it wrote.
        let audit = try await SproutProcess.run(["audit", "list", "--action", "backup.create", "--data-dir", data])
        let entries = audit.output.split(separator: "\n")
        #expect(entries.count == 2 && entries.allSatisfy { $0.contains("\tcli:") }, "\(audit.output)")
        #expect(entries.first?.contains("backup:" + archives[0]) == true, "\(audit.output)")

        let damaged = data + "/damaged.tar"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: data + "/backups/" + archives[0]))
        bytes[bytes.count / 2] ^= 1
        try bytes.write(to: URL(fileURLWithPath: damaged))
        let refused = try await SproutProcess.run(["restore", damaged, "--data-dir", restored + "-2", "--secrets-key-file", data + "/secrets.key"])
        #expect(refused.status != 0 && refused.errors.contains("damaged"), "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: restored + "-2"))
    }

    /// PostgreSQL as production has it: Sprout's tables in `public` of a database of their own, restored into
    /// another empty database. Runs when `SPROUT_TEST_DATABASE_URL` names a PostgreSQL server.
    @Test func postgreSQLInPublicIsBackedUpAndRestoredIntoAnotherDatabase() async throws {
        guard TestDatabasePlace.postgresURL != nil else { return }
        let data = SproutProcess.temporaryDataDirectory()
        let restored = SproutProcess.temporaryDataDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: data)
            try? FileManager.default.removeItem(atPath: restored)
        }
        try await BackupTestPlaces.withFreshDatabase { source in
            try await BackupTestPlaces.withFreshDatabase { target in
                let tools = ["PATH": "/usr/bin:/bin:/usr/lib/postgresql/15/bin"]
                let seeded = try await SproutProcess.run([
                    "seed", "--todos", "5", "--accounts", "1", "--posts", "1", "--comments", "0", "--products", "1",
                    "--board-posts", "1", "--diary-entries", "1", "--data-dir", data,
                ], environment: tools.merging(["DATABASE_URL": source]) { $1 }, limit: .seconds(120))
                #expect(seeded.status == 0, "\(seeded.errors)")
                let backup = try await SproutProcess.run(["backup", "--data-dir", data], environment: tools.merging(["DATABASE_URL": source]) { $1 })
                #expect(backup.status == 0, "\(backup.errors)")
                let archive = try #require(backup.output.split(separator: "\n").last.map(String.init))
                let manifest = try VerifiedBackup.open(archive).manifest
                #expect(manifest.database.kind == "postgresql" && manifest.database.schema == "public")

                let restore = try await SproutProcess.run(
                    ["restore", archive, "--data-dir", restored, "--secrets-key-file", data + "/secrets.key"],
                    environment: tools.merging(["DATABASE_URL": target]) { $1 }
                )
                #expect(restore.status == 0, "\(restore.errors)")
                let vendor = try await SproutProcess.run(
                    ["vendor", "show", "demo1", "--data-dir", restored], environment: tools.merging(["DATABASE_URL": target]) { $1 }
                )
                #expect(vendor.status == 0 && vendor.output.contains("secret:"), "\(vendor.output) \(vendor.errors)")
                let again = try await SproutProcess.run(
                    ["restore", archive, "--data-dir", restored + "-2", "--secrets-key-file", data + "/secrets.key"],
                    environment: tools.merging(["DATABASE_URL": target]) { $1 }
                )
                #expect(again.status != 0 && again.errors.contains("PostgreSQL schema public"), "\(again.errors)")
                let database = try SproutDatabase(settings: .postgres(url: target), migrations: SproutMigrations.all, logger: testLogger())
                let counts = try await database.withOpen { database in
                    var counts: [String: Int] = [:]
                    for table in manifest.tables.keys {
                        counts[table] = try await database.executor.readFirst(SQLStatement("SELECT count(*) FROM \(raw: table)"), as: SQLInt.self)?.value
                    }
                    return counts
                }
                #expect(counts == manifest.tables)
            }
        }
    }
}
