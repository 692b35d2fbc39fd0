import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import Synchronization
import Testing
@testable import SproutServer

/// Online backups and verified restores, on the test run's database (SQLite, or PostgreSQL when
/// `SPROUT_TEST_DATABASE_URL` is set: the backup dumps the test's schema, the restore goes to a fresh database and
/// a fresh schema there).
@Suite struct BackupRestoreTests {
    @Test func aBackupTakenUnderWritesRestoresEveryRowImageAndAnswer() async throws {
        let data = BackupTestPlaces.directory("source")
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withTestApp(configure: { $0.data.directory = data }) { client, database in
            let todoID = try await client.createTodo("백업할 할일")
            let author = try await client.signUp("backupper")
            let postID = try await client.createPost("백업되는 글", as: author)
            let boardPostID = try #require(try await client.writePost("백업 게시글", "게시판 내용", as: author)["postId"]?.int)
            let vendor = try await client.makeVendor("shopkeeper")
            let product = try await client.registerProduct(as: vendor, name: "백업 상품")
            let productID = try #require(product["id"]?.int)

            // Creates go on through the API while the backup runs, and after it. The backup starts once the first
            // is acknowledged: a fixed pause was sometimes too short for the writer to be scheduled at all on a
            // loaded machine, and the backup was then taken with no write under way. The writer is stopped by a flag,
            // not by cancelling it: a cancelled test client can hand the router a request whose body was never read.
            let (writesUnderWay, firstWriteAcknowledged) = AsyncStream.makeStream(of: Void.self)
            let stopWriting = StopFlag()
            let writer = Task {
                defer { firstWriteAcknowledged.finish() }
                var created = 0
                while !stopWriting.isSet, created < 5000 {
                    _ = try await client.createTodo("written during the backup \(created)")
                    created += 1
                    firstWriteAcknowledged.finish()
                }
                return created
            }
            for await _ in writesUnderWay {}
            var backup = SproutBackup(configuration: Self.configuration(data), output: data + "-backups/", logger: testLogger())
            backup.database = database.settings
            let result = try #require(try await backup.run())
            stopWriting.set()
            let created = try await writer.value
            #expect(created > 0)
            #expect(URL(fileURLWithPath: result.path).lastPathComponent.hasPrefix("sprout-backup-"))
            #expect(!FileManager.default.fileExists(atPath: result.path + ".partial"))
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: result.path)[.posixPermissions] as? NSNumber).intValue
            #expect(mode & 0o777 == 0o600)
            #expect(result.bytes == (try FileManager.default.attributesOfItem(atPath: result.path)[.size] as? NSNumber)?.int64Value)
            defer { try? FileManager.default.removeItem(atPath: data + "-backups") }

            let manifest = try VerifiedBackup.open(result.path).manifest
            #expect(manifest == result.manifest)
            #expect(manifest.schemaVersion == SproutMigrations.all.count)
            #expect(manifest.migrations == SproutMigrations.all.map(\.name))
            #expect(manifest.secretsKey.included == false && manifest.secretsKey.check != nil && manifest.secretsKey.source == "SECRETS_KEY")
            #expect(manifest.tables["market_products"] == 1 && manifest.tables["posts"] == 1)
            let todosAtBackup = try #require(manifest.tables["todos"])
            #expect(todosAtBackup >= 1 && todosAtBackup <= 1 + created)
            let images = manifest.files.filter { $0.path.hasPrefix("market-images/") }
            #expect(!images.isEmpty)
            #expect(!manifest.files.contains { $0.path.contains("/tmp/") || $0.path.hasSuffix(".log") || $0.path.contains("secrets.key") })

            try await BackupTestPlaces.withRestoreTarget(like: database.settings) { target, directory in
                var restore = SproutRestore(archive: result.path, configuration: Self.configuration(directory), logger: testLogger())
                restore.database = target
                let restored = try await restore.run()
                #expect(restored.migrated.isEmpty)
                #expect(restored.manifest == manifest)
                for image in images {
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(image.path))
                    #expect(SHA256.hash(data: bytes).hexString == image.sha256, "\(image.path)")
                }

                let restoredDatabase = try SproutDatabase(settings: target, migrations: SproutMigrations.all, logger: testLogger())
                let app = buildApplication(Self.configuration(directory), database: restoredDatabase, logger: testLogger())
                try await app.test(.router) { restoredClient in
                    for (table, count) in manifest.tables {
                        let rows = try await restoredDatabase.executor.readFirst(SQLStatement("SELECT count(*) FROM \(raw: "\"" + table + "\"")"), as: SQLInt.self)?.value
                        #expect(rows == count, "\(table)")
                    }
                    // The same answers from the original (still being written to) and from the restored copy.
                    for (path, headers) in [
                        ("/api/v2/todos/\(todoID)", HTTPFields()),
                        ("/posts/\(postID)", author.bearer),
                        ("/api/v2/boards/\(SeedBoard.free)/posts/\(boardPostID)", author.bearer),
                        ("/api/products/\(productID)", HTTPFields()),
                    ] {
                        let fromCopy = try await restoredClient.raw(.get, path, headers: headers)
                        let fromOriginal = try await client.raw(.get, path, headers: headers)
                        #expect(fromCopy.status == .ok, "\(path): \(fromCopy.text)")
                        #expect(fromCopy.text == fromOriginal.text, "\(path)")
                    }
                    let imageURL = try #require(product["images"]?.array?.first?["url"]?.string)
                    let imageFromCopy = try await restoredClient.fetchImage(imageURL)
                    let imageFromOriginal = try await client.fetchImage(imageURL)
                    #expect(imageFromCopy.status == .ok && !imageFromCopy.body.isEmpty)
                    #expect(imageFromCopy.body == imageFromOriginal.body)
                    // The vendor's sealed secret opens with the restored key: the vendor can still sell.
                    let second = try await restoredClient.registerProduct(as: vendor, name: "복원 후 상품")
                    #expect(second["id"]?.int != nil)
                }
            }
        }
    }

    @Test func anArchiveFromAnOlderSchemaIsMigratedForward() async throws {
        let older = Array(SproutMigrations.all.dropLast(3))
        let place = try await TestDatabasePlace.make(logger: testLogger())
        let data = BackupTestPlaces.directory("older")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let source = try SproutDatabase(settings: place.settings, migrations: older, logger: testLogger())
        try await source.withOpen { database in
            try await database.migrate()
            _ = try await database.executor.write("INSERT INTO todos (title, title_folded, is_done, created_at, updated_at) VALUES ('옛 할일', '옛 할일', \(bind: false), \(bind: Date()), \(bind: Date())) RETURNING id", as: SQLInt.self)
        }
        var backup = SproutBackup(configuration: Self.configuration(data), output: data + "/backups/", logger: testLogger())
        backup.database = place.settings
        let result = try #require(try await backup.run())
        await place.remove(logger: testLogger())
        #expect(result.manifest.schemaVersion == older.count)
        #expect(result.manifest.tables["todos"] == 1)

        try await BackupTestPlaces.withRestoreTarget(like: place.settings) { target, directory in
            var restore = SproutRestore(archive: result.path, configuration: Self.configuration(directory), logger: testLogger())
            restore.database = target
            let restored = try await restore.run()
            #expect(restored.migrated == SproutMigrations.all.suffix(3).map(\.name))
            let database = try SproutDatabase(settings: target, migrations: SproutMigrations.all, logger: testLogger())
            try await database.withOpen { database in
                let applied = try await database.executor.read("SELECT name FROM sprout_migrations", as: SQLTextValue.self).map(\.value)
                #expect(Set(applied) == Set(SproutMigrations.all.map(\.name)))
                #expect(try await database.todoCount() == 1)
            }
        }
    }

    @Test func damagedTruncatedAndForeignFilesAreRefusedWithNothingWritten() async throws {
        let data = BackupTestPlaces.directory("damage")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let archive = try await Self.smallArchive(in: data)
        let original = try Data(contentsOf: URL(fileURLWithPath: archive))
        let manifest = try VerifiedBackup.open(archive).manifest
        let databaseSize = Int(manifest.files[0].bytes)

        var cases: [(String, Data)] = []
        for offset in [100, 512 + databaseSize / 2, original.count - 1024 - 600, original.count - 700, original.count - 3] {
            var damaged = original
            damaged[offset] ^= 0x20
            cases.append(("a byte changed at \(offset) of \(original.count)", damaged))
        }
        cases.append(("truncated to half", original.prefix(original.count / 2)))
        cases.append(("truncated by one block", original.prefix(original.count - 512)))
        cases.append(("truncated inside the header", original.prefix(300)))
        cases.append(("empty", Data()))
        cases.append(("random bytes", Data((0..<70_000).map { _ in UInt8.random(in: 0...255) })))
        cases.append(("a text file", Data(String(repeating: "not a backup\n", count: 100).utf8)))
        cases.append(("a tar file of something else", try Self.foreignTar(in: data)))

        for (name, bytes) in cases {
            let path = data + "/case.tar"
            try bytes.write(to: URL(fileURLWithPath: path))
            try await BackupTestPlaces.withRestoreTarget(like: .sqlite(path: "")) { target, directory in
                var restore = SproutRestore(archive: path, configuration: Self.configuration(directory), logger: testLogger())
                restore.database = target
                await #expect(throws: BackupError.self, "\(name)") { try await restore.run() }
                #expect(!FileManager.default.fileExists(atPath: directory), "\(name): the target was written")
            }
            #expect(throws: BackupError.self, "\(name)") { try VerifiedBackup.open(path) }
        }
        let random = try #require(cases.first { $0.0 == "random bytes" })
        try random.1.write(to: URL(fileURLWithPath: data + "/random.tar"))
        #expect(throws: BackupError.self) { try VerifiedBackup.open(data + "/random.tar") }
        do {
            _ = try VerifiedBackup.open(data + "/random.tar")
        } catch {
            #expect("\(error)".contains("is not a Sprout backup archive"), "\(error)")
        }
    }

    @Test func aTargetThatIsNotEmptyNeedsForceAndTheRightSecretsKey() async throws {
        let data = BackupTestPlaces.directory("force")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let archive = try await Self.smallArchive(in: data)
        let target = data + "/target"
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target + "/notes.txt"))

        var restore = SproutRestore(archive: archive, configuration: Self.configuration(target), logger: testLogger())
        restore.database = .sqlite(path: target + "/sprout.sqlite")
        do {
            _ = try await restore.run()
            Issue.record("a non-empty target was overwritten")
        } catch let error as BackupError {
            #expect("\(error)".contains("not empty") && "\(error)".contains("--force"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: target + "/sprout.sqlite"))

        // The wrong key, and no key at all: refused before anything is written.
        var otherKey = Self.configuration(target)
        otherKey.data.secretsKey = "another key of at least thirty-two bytes"
        var wrongKey = SproutRestore(archive: archive, configuration: otherKey, force: true, logger: testLogger())
        wrongKey.database = .sqlite(path: target + "/sprout.sqlite")
        await #expect(throws: BackupError.self) { try await wrongKey.run() }
        var noKey = Self.configuration(target)
        noKey.data.secretsKey = nil
        var withoutKey = SproutRestore(archive: archive, configuration: noKey, force: true, logger: testLogger())
        withoutKey.database = .sqlite(path: target + "/sprout.sqlite")
        do {
            _ = try await withoutKey.run()
            Issue.record("restored without the secrets key")
        } catch {
            #expect("\(error)".contains("--secrets-key-file"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: target + "/sprout.sqlite"))

        var forced = SproutRestore(archive: archive, configuration: Self.configuration(target), force: true, logger: testLogger())
        forced.database = .sqlite(path: target + "/sprout.sqlite")
        let result = try await forced.run()
        #expect(result.manifest.tables["todos"] == 2)
        #expect(FileManager.default.fileExists(atPath: target + "/sprout.sqlite"))
        #expect(try String(contentsOfFile: target + "/notes.txt", encoding: .utf8) == "keep me")
    }

    @Test func aPostgreSQLSchemaThatIsNotEmptyNeedsForce() async throws {
        guard TestDatabasePlace.postgresURL != nil else { return }
        let data = BackupTestPlaces.directory("pgforce")
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withTestApp(configure: { $0.data.directory = data }) { client, database in
            try await client.createTodo("첫째 할일입니다")
            var backup = SproutBackup(configuration: Self.configuration(data), output: data + "/backups/", logger: testLogger())
            backup.database = database.settings
            let archive = try #require(try await backup.run()).path
            try await client.createTodo("둘째 할일입니다")
            // The test's own schema is not empty: refused, then replaced with --force.
            let target = BackupTestPlaces.directory("pgforce-target")
            defer { try? FileManager.default.removeItem(atPath: target) }
            var restore = SproutRestore(archive: archive, configuration: Self.configuration(target), logger: testLogger())
            restore.database = database.settings
            await #expect(throws: BackupError.self) { try await restore.run() }
            #expect(try await database.todoCount() == 2)
            var forced = SproutRestore(archive: archive, configuration: Self.configuration(target), force: true, logger: testLogger())
            forced.database = database.settings
            _ = try await forced.run()
            let reopened = try SproutDatabase(settings: database.settings, migrations: SproutMigrations.all, logger: testLogger())
            let count = try await reopened.withOpen { try await $0.todoCount() }
            #expect(count == 1)
        }
    }

    @Test func keepDeletesOnlyTheOldestArchivesNamedAsBackups() throws {
        let directory = BackupTestPlaces.directory("keep")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let names = [
            "sprout-backup-20260101T000000.000Z.tar", "sprout-backup-20260102T000000.000Z.tar",
            "sprout-backup-20260103T000000.000Z.tar", "sprout-backup-20260104T000000.000Z.tar",
        ]
        let others = ["notes.txt", "sprout-backup-20260101T000000.000Z.tar.partial", "sprout-backup-old.tar", "mine.tar"]
        for name in names + others { _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data()) }
        let removed = try SproutBackup.keepNewest(2, in: directory)
        #expect(removed == Array(names.prefix(2)))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory)) == Set(names.suffix(2) + others))
    }

    @Test func scheduledBackupsFallOnMultiplesOfTheIntervalAndPrune() async throws {
        let schedule = BackupSchedule(configuration: SproutConfiguration(), interval: .seconds(3600), logger: testLogger())
        let delay = schedule.delayToNextTurn(after: Date(timeIntervalSince1970: 7200 * 1000 + 1800))
        #expect(delay == .seconds(1800))
        #expect(try BackupSettings.parseInterval("6h") == .seconds(21_600))
        #expect(throws: ConfigurationError.self) { try BackupSettings.parseInterval("5s") }
        #expect(try SproutConfiguration.fromEnvironment(["BACKUP_EVERY": "1d", "BACKUP_KEEP": "3"]).backup.every == .seconds(86_400))
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["BACKUP_EVRY": "1d"]) }

        let data = BackupTestPlaces.directory("schedule")
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withTestApp(configure: { $0.data.directory = data }) { client, database in
            try await client.createTodo("scheduled")
            var configuration = Self.configuration(data)
            configuration.backup.keep = 2
            for _ in 0..<3 {
                let turn = BackupSchedule(configuration: configuration, interval: .seconds(60), logger: testLogger(), database: database.settings)
                await turn.backUpOnce()
                try await Task.sleep(for: .milliseconds(5))
            }
            let archives = try FileManager.default.contentsOfDirectory(atPath: data + "/backups").filter { $0.hasSuffix(".tar") }
            #expect(archives.count == 2)
        }
    }

    @Test func theScheduleRunsInAServiceGroupAndEndsAtGracefulShutdown() async throws {
        let data = BackupTestPlaces.directory("service")
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withTestApp(configure: { $0.data.directory = data }) { client, database in
            try await client.createTodo("scheduled in a group")
            let finished = Mutex<[BackupResult]>([])
            let schedule = BackupSchedule(
                configuration: Self.configuration(data), interval: .seconds(1), logger: testLogger(), database: database.settings
            ) { result in finished.withLock { $0.append(result) } }
            let group = ServiceGroup(configuration: .init(services: [schedule], logger: testLogger()))
            let running = Task { try await group.run() }
            let deadline = ContinuousClock.now + .seconds(30)
            while finished.withLock({ $0.count }) < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            let stopping = ContinuousClock.now
            await group.triggerGracefulShutdown()
            try await running.value
            // A backup under way finishes first (at nice 10: slow on a machine busy with the whole suite).
            #expect(ContinuousClock.now - stopping < .seconds(60))
            let results = finished.withLock { $0 }
            #expect(results.count >= 2)
            for result in results {
                #expect(FileManager.default.fileExists(atPath: result.path) && result.bytes > 0 && result.duration > .zero)
                #expect(result.manifest.tables["todos"] == 1)
            }
        }
    }

    @Test func postgresToolsGetThePasswordInTheirEnvironmentAndAMissingToolIsNamed() throws {
        let tools = try PostgresTools(url: "postgres://owner:s%40cret%20pw@db.example:5433/shop?sslmode=require", environment: ["PATH": "/nonexistent"])
        #expect(tools.connection["PGPASSWORD"] == "s@cret pw")
        #expect(tools.connection["PGUSER"] == "owner" && tools.connection["PGHOST"] == "db.example" && tools.connection["PGPORT"] == "5433")
        #expect(tools.connection["PGDATABASE"] == "shop" && tools.connection["PGSSLMODE"] == "require")
        do {
            _ = try tools.locate("pg_no_such_tool")
            Issue.record("found a tool that does not exist")
        } catch {
            #expect("\(error)".contains("pg_no_such_tool was not found") && "\(error)".contains("PG_BIN"), "\(error)")
        }
    }

    // MARK: - Helpers

    static func configuration(_ directory: String) -> SproutConfiguration {
        var configuration = SproutConfiguration(server: ServerSettings(hostname: "127.0.0.1", port: 0))
        configuration.data.directory = directory
        configuration.data.secretsKey = SecretSealer.testKey
        configuration.accounts.passwordHashCost = 4
        configuration.diary.weather.provider = .off
        configuration.accounts.signUpsPerAddressPerHour = 0
        configuration.market.uploadsPerHour = 0
        return configuration
    }

    /// A backup of two todos on SQLite, for the tests that damage or refuse it.
    static func smallArchive(in data: String) async throws -> String {
        let database = try SproutDatabase(settings: .sqlite(path: data + "/sprout.sqlite"), migrations: SproutMigrations.all, logger: testLogger())
        try await database.withOpen { database in
            try await database.prepare(configuration(data))
            for title in ["하나", "둘"] {
                _ = try await database.executor.write("INSERT INTO todos (title, title_folded, is_done, created_at, updated_at) VALUES (\(bind: title), \(bind: title), \(bind: false), \(bind: Date()), \(bind: Date())) RETURNING id", as: SQLInt.self)
            }
        }
        let backup = SproutBackup(configuration: configuration(data), output: data + "/backups/", logger: testLogger())
        return try #require(try await backup.run()).path
    }

    /// A well-formed ustar archive that is no Sprout backup.
    static func foreignTar(in directory: String) throws -> Data {
        let path = directory + "/foreign.tar"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var writer = TarWriter(descriptor: descriptor, path: path)
        try writer.add(name: "hello.txt", bytes: Array("hello\n".utf8), modified: Date())
        try writer.finish()
        close(descriptor)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}

extension SproutDatabase {
    func prepare(_ configuration: SproutConfiguration) async throws {
        try await migrate()
        try await SecretsAtRest(database: self, configuration: configuration).prepare(logger: testLogger())
    }
}

/// Fresh places to restore into: a directory that does not exist yet, and on PostgreSQL a database of its own
/// (the archive's schema is restored under its name there, then renamed to a fresh one).
enum BackupTestPlaces {
    static func directory(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sprout-backup-test-\(name)-\(UUID().uuidString.prefix(8))").path
    }

    /// A new, empty PostgreSQL database on the test server, dropped afterwards; `body` gets its URL.
    static func withFreshDatabase(_ body: (String) async throws -> Void) async throws {
        let url = try #require(TestDatabasePlace.postgresURL)
        let name = "sprout_restore_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try await TestDatabasePlace.withAdminConnection(url: url, logger: testLogger()) { executor in
            _ = try await executor.write(SQLStatement("CREATE DATABASE \(raw: name)"), as: SQLInt.self)
        }
        var components = try #require(URLComponents(string: url))
        components.path = "/" + name
        do {
            try await body(try #require(components.string))
        } catch {
            await drop(name, url: url)
            throw error
        }
        await drop(name, url: url)
    }

    static func withRestoreTarget(like source: DatabaseSettings, _ body: (DatabaseSettings, String) async throws -> Void) async throws {
        let directory = Self.directory("restored")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard case .postgres = source, let url = TestDatabasePlace.postgresURL else {
            try await body(.sqlite(path: directory + "/sprout.sqlite"), directory)
            return
        }
        let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let name = "sprout_restore_\(suffix)"
        try await TestDatabasePlace.withAdminConnection(url: url, logger: testLogger()) { executor in
            _ = try await executor.write(SQLStatement("CREATE DATABASE \(raw: name)"), as: SQLInt.self)
        }
        var components = try #require(URLComponents(string: url))
        components.path = "/" + name
        let target = DatabaseSettings.postgres(url: try #require(components.string), schema: "restored_\(suffix)")
        do {
            try await body(target, directory)
        } catch {
            await drop(name, url: url)
            throw error
        }
        await drop(name, url: url)
    }

    private static func drop(_ name: String, url: String) async {
        try? await TestDatabasePlace.withAdminConnection(url: url, logger: testLogger()) { executor in
            _ = try await executor.write(SQLStatement("DROP DATABASE IF EXISTS \(raw: name) WITH (FORCE)"), as: SQLInt.self)
        }
    }
}

/// A flag one task sets and another polls.
private final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    var isSet: Bool { raised.load(ordering: .acquiring) }
    func set() { raised.store(true, ordering: .releasing) }
}
