import Crypto
import Foundation
import GRDB
import Logging
import PostgresNIO

/// A backup archive read back and checked: every header, every file's SHA-256 against the manifest, the manifest
/// against `SHA256SUMS`. Nothing is written while checking.
public struct VerifiedBackup: Sendable {
    public let path: String
    public let manifest: BackupManifest
    let entries: [String: Tar.Entry]

    /// Reads and checks the archive at `path`; throws `BackupError` for a foreign, truncated or damaged file.
    public static func open(_ path: String) throws -> VerifiedBackup {
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BackupError.io("open", path, errno) }
        defer { close(descriptor) }
        let length = try PosixIO.size(of: descriptor, path: path)
        guard length >= Int64(Tar.block) else { throw length == 0 ? BackupError.notABackup(path) : BackupError.truncated(path) }
        let list = try Tar.entries(of: descriptor, length: length, path: path)
        guard list.count >= 2, list[list.count - 2].name == BackupManifest.fileName, list[list.count - 1].name == BackupManifest.sumsFileName else {
            throw list.contains(where: { $0.name == BackupManifest.fileName }) ? BackupError.damaged(path, "the manifest is not where it belongs")
                : BackupError.notABackup(path)
        }
        let manifestBytes = try read(list[list.count - 2], of: descriptor, path: path, limit: 64 << 20)
        let sums = String(decoding: try read(list[list.count - 1], of: descriptor, path: path, limit: 64 << 20), as: UTF8.self)
        var listed: [String: String] = [:]
        for line in sums.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { throw BackupError.damaged(path, "SHA256SUMS is unreadable") }
            listed[String(parts[1].drop { $0 == " " || $0 == "*" })] = String(parts[0])
        }
        guard listed[BackupManifest.fileName] == SHA256.hash(data: manifestBytes).hexString else {
            throw BackupError.damaged(path, "the manifest does not match its checksum in SHA256SUMS")
        }
        let manifest: BackupManifest
        do {
            manifest = try JSONDecoder().decode(BackupManifest.self, from: Data(manifestBytes))
        } catch {
            throw BackupError.notABackup(path)
        }
        guard manifest.format == BackupManifest.formatName else { throw BackupError.notABackup(path) }
        guard manifest.formatVersion <= BackupManifest.currentFormatVersion else {
            throw BackupError.failed("\(path) is a backup of format version \(manifest.formatVersion); this Sprout reads up to \(BackupManifest.currentFormatVersion)")
        }
        let files = Array(list.dropLast(2))
        guard files.map(\.name) == manifest.files.map(\.path), zip(files, manifest.files).allSatisfy({ $0.size == $1.bytes }),
              manifest.files.allSatisfy({ listed[$0.path] == $0.sha256 }), listed.count == manifest.files.count + 1
        else { throw BackupError.damaged(path, "the archive's files are not the ones its manifest lists") }
        for (entry, file) in zip(files, manifest.files) {
            guard try hash(entry, of: descriptor, path: path) == file.sha256 else {
                throw BackupError.damaged(path, "\(file.path) does not match its SHA-256 in the manifest")
            }
        }
        guard files.contains(where: { $0.name == manifest.database.file }) else {
            throw BackupError.damaged(path, "the database copy \(manifest.database.file) is missing")
        }
        return VerifiedBackup(path: path, manifest: manifest, entries: Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0) }))
    }

    private static func read(_ entry: Tar.Entry, of descriptor: Int32, path: String, limit: Int64) throws -> [UInt8] {
        guard entry.size <= limit else { throw BackupError.damaged(path, "\(entry.name) is implausibly large") }
        var bytes = [UInt8](repeating: 0, count: Int(Tar.paddedSize(entry.size)))
        try PosixIO.readExactly(descriptor, into: &bytes, count: bytes.count, at: entry.dataOffset, path: path)
        guard bytes[Int(entry.size)...].allSatisfy({ $0 == 0 }) else { throw BackupError.damaged(path, "padding after \(entry.name) is not zero") }
        return Array(bytes[..<Int(entry.size)])
    }

    /// The entry's SHA-256, its padding checked to be zero.
    private static func hash(_ entry: Tar.Entry, of descriptor: Int32, path: String) throws -> String {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        let padded = Tar.paddedSize(entry.size)
        while offset < padded {
            let count = Int(min(Int64(buffer.count), padded - offset))
            try PosixIO.readExactly(descriptor, into: &buffer, count: count, at: entry.dataOffset + offset, path: path)
            let dataCount = Int(max(0, min(Int64(count), entry.size - offset)))
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<dataCount])) }
            guard buffer[dataCount..<count].allSatisfy({ $0 == 0 }) else { throw BackupError.damaged(path, "padding after \(entry.name) is not zero") }
            offset += Int64(count)
        }
        return hasher.finalize().hexString
    }

    /// Copies the entry `name` into a new file at `destination` (0600), fsynced.
    func extract(_ name: String, to destination: String) throws {
        guard let entry = entries[name] else { throw BackupError.damaged(path, "\(name) is missing") }
        let source = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw BackupError.io("open", path, errno) }
        defer { close(source) }
        let target = Foundation.open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard target >= 0 else { throw BackupError.io("create", destination, errno) }
        defer { close(target) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        while offset < entry.size {
            let count = Int(min(Int64(buffer.count), entry.size - offset))
            try PosixIO.readExactly(source, into: &buffer, count: count, at: entry.dataOffset + offset, path: path)
            try buffer.withUnsafeBytes { try PosixIO.writeAll(target, UnsafeRawBufferPointer(rebasing: $0[0..<count]), path: destination) }
            offset += Int64(count)
        }
        guard fsync(target) == 0 else { throw BackupError.io("fsync", destination, errno) }
    }
}

/// `sprout restore`: a verified archive put back into a data directory (and a PostgreSQL schema), then migrated
/// forward by the normal migrator. Everything is checked before the target is touched: the archive
/// (`VerifiedBackup`), the database copy's integrity and row counts, the secrets key against the manifest's key
/// check, and that the target is empty (unless `force`).
public struct SproutRestore: Sendable {
    public let archive: String
    /// The target: `data.directory`, and `DATABASE_URL` (with its schema) for PostgreSQL.
    public let configuration: SproutConfiguration
    /// The target database: `configuration.data.database` unless set (tests give a PostgreSQL schema).
    public var database: DatabaseSettings
    public let force: Bool
    /// The old data directory's `secrets.key`, copied into the target once it is checked.
    public let secretsKeyFile: String?
    let logger: Logger

    public init(archive: String, configuration: SproutConfiguration, force: Bool = false, secretsKeyFile: String? = nil, logger: Logger) {
        self.archive = archive
        self.configuration = configuration
        database = configuration.data.database
        self.force = force
        self.secretsKeyFile = secretsKeyFile
        self.logger = logger
    }

    public struct Result: Sendable {
        public let manifest: BackupManifest
        /// Migrations applied after the restore (an archive from an older Sprout).
        public let migrated: [String]
    }

    /// Files in a data directory that do not make it "not empty": a key put there for the restore, earlier
    /// backups, and a log.
    static let ignoredInTarget: Set<String> = ["secrets.key", "backups", "lost+found"]

    public func run() async throws -> Result {
        let archive = archive
        let backup = try await SproutBackup.onThread { try VerifiedBackup.open(archive) }
        let manifest = backup.manifest
        let known = Set(SproutMigrations.all.map(\.name))
        if let unknown = manifest.migrations.first(where: { !known.contains($0) }) {
            throw BackupError.failed("the archive comes from a newer Sprout (its schema has the migration \(unknown), which this one does not know); restore it with that version or newer")
        }
        let keySource = try checkedSecretsKey(manifest)
        let dataDirectory = URL(fileURLWithPath: configuration.data.directory)
        let isPostgres: Bool
        switch database {
        case .sqlite: isPostgres = false
        case .postgres: isPostgres = true
        }
        guard (manifest.database.kind == "postgresql") == isPostgres else {
            throw BackupError.failed(
                "the archive holds a \(manifest.database.kind) database but the target is \(isPostgres ? "PostgreSQL (DATABASE_URL is set)" : "SQLite (DATABASE_URL is unset)"); restore into the same kind of database"
            )
        }
        try checkDirectoryTarget(dataDirectory)
        var target: PostgresTarget?
        if case .postgres(_, let schema, _) = database, let url = database.sessionURL {
            target = try await PostgresTarget.inspect(url: url, schema: schema, archiveSchema: manifest.database.schema ?? "public", logger: logger)
            if target!.tableCount > 0, !force {
                throw BackupError.targetNotEmpty("the PostgreSQL schema \(target!.schema) (\(target!.tableCount) tables)")
            }
            if target!.archiveSchemaTaken {
                throw BackupError.failed(
                    "the archive's schema \(manifest.database.schema ?? "public") exists in the target database; restore into a database without it (the archive is restored under that name, then renamed to \(target!.schema))"
                )
            }
        }

        // Staged beside the target, then moved in: a failure before the move leaves the target as it was.
        let createdDirectory = !FileManager.default.fileExists(atPath: dataDirectory.path)
        try PrivateDirectory.ensure(dataDirectory)
        let staging = dataDirectory.appendingPathComponent(".restore-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: staging) }
        do {
            try await SproutBackup.onThread { try Self.stageImages(of: backup, into: staging) }
            let stagedDatabase = staging.appendingPathComponent(isPostgres ? "sprout.pgdump" : "sprout.sqlite")
            try await SproutBackup.onThread { try backup.extract(manifest.database.file, to: stagedDatabase.path) }
            if let target, let url = database.sessionURL {
                try await restorePostgres(dump: stagedDatabase.path, into: target, url: url, staging: staging, manifest: manifest)
            } else {
                let copy = try await SproutBackup.onThread { try SproutBackup.inspectSQLite(stagedDatabase.path) }
                guard copy.tables == manifest.tables else {
                    throw BackupError.damaged(archive, "the database copy's row counts differ from the manifest's")
                }
            }
            // The point of no return: the old files go, the staged ones take their place.
            try Self.replace(in: dataDirectory, from: staging, database: isPostgres ? nil : stagedDatabase)
            try installSecretsKey(keySource, in: dataDirectory)
        } catch {
            if createdDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
            throw error
        }

        let settings = database
        let configuration = configuration
        let logger = logger
        let before = Set(manifest.migrations)
        let database = try SproutDatabase(settings: settings, migrations: SproutMigrations.all, logger: logger)
        try await database.withOpen { database in
            try await database.migrate()
            try await SecretsAtRest(database: database, configuration: configuration).prepare(logger: logger)
        }
        let migrated = SproutMigrations.all.map(\.name).filter { !before.contains($0) }
        logger.info("backup restored", metadata: ["archive": "\(archive)", "migrated": "\(migrated.count)"])
        return Result(manifest: manifest, migrated: migrated)
    }

    // MARK: - The secrets key

    enum KeySource {
        case environment
        case file(String)
        case targetFile
    }

    /// The key this restore will run with, checked against the archive's key check before anything is written.
    private func checkedSecretsKey(_ manifest: BackupManifest) throws -> KeySource {
        let targetKey = URL(fileURLWithPath: configuration.data.directory).appendingPathComponent("secrets.key").path
        let source: KeySource
        let sealer: SecretSealer
        if let secretsKeyFile {
            guard FileManager.default.fileExists(atPath: secretsKeyFile) else {
                throw BackupError.secretsKey("the secrets key file \(secretsKeyFile) does not exist")
            }
            source = .file(secretsKeyFile)
            sealer = SecretSealer(.file(path: secretsKeyFile))
        } else if let text = configuration.data.secretsKey {
            source = .environment
            sealer = SecretSealer(.text(text))
        } else if FileManager.default.fileExists(atPath: targetKey) {
            source = .targetFile
            sealer = SecretSealer(.file(path: targetKey))
        } else {
            guard manifest.secretsKey.check == nil else {
                throw BackupError.secretsKey(
                    "this backup's sealed secrets (vendor secrets, the generated JWT key) need the key it was made with, "
                        + "which backups never hold (it was \(manifest.secretsKey.source) on the backed-up server; key check \(manifest.secretsKey.check!)). "
                        + "Give it with --secrets-key-file PATH (that server's DATA_DIR/secrets.key), or set SECRETS_KEY as that server did."
                )
            }
            return .targetFile  // an archive without sealed secrets: a key is made on first start
        }
        if let check = manifest.secretsKey.check {
            let given: String
            do {
                given = try sealer.keyCheck()
            } catch {
                throw BackupError.secretsKey("the secrets key could not be read: \(error)")
            }
            guard given == check else {
                throw BackupError.secretsKey(
                    "the secrets key given (\(Self.name(of: source))) is not the one this backup's secrets were sealed with "
                        + "(it was \(manifest.secretsKey.source) on the backed-up server; key check \(check), this key's \(given)). Nothing was written."
                )
            }
        }
        return source
    }

    private static func name(of source: KeySource) -> String {
        switch source {
        case .environment: "SECRETS_KEY"
        case .file(let path): path
        case .targetFile: "secrets.key in the target directory"
        }
    }

    private func installSecretsKey(_ source: KeySource, in dataDirectory: URL) throws {
        guard case .file(let path) = source else { return }
        let destination = dataDirectory.appendingPathComponent("secrets.key")
        if URL(fileURLWithPath: path).standardizedFileURL == destination.standardizedFileURL { return }
        let temporary = dataDirectory.appendingPathComponent(".secrets.key.\(UUID().uuidString)")
        try FileManager.default.copyItem(atPath: path, toPath: temporary.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path)
        try PosixFile.rename(temporary.path, to: destination.path)
    }

    // MARK: - Files

    private func checkDirectoryTarget(_ directory: URL) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let occupied = names.filter { !Self.ignoredInTarget.contains($0) && !$0.hasPrefix(".restore-") }
        if !occupied.isEmpty, !force {
            throw BackupError.targetNotEmpty("the data directory \(directory.path) (it holds \(occupied.sorted().prefix(5).joined(separator: ", ")))")
        }
    }

    private static func stageImages(of backup: VerifiedBackup, into staging: URL) throws {
        for file in backup.manifest.files where file.path.hasPrefix("market-images/") {
            let destination = staging.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try backup.extract(file.path, to: destination.path)
        }
    }

    /// Removes the target's database files and images and moves the staged ones in.
    private static func replace(in directory: URL, from staging: URL, database: URL?) throws {
        let images = directory.appendingPathComponent("market-images")
        for name in ["sprout.sqlite", "sprout.sqlite-wal", "sprout.sqlite-shm"] where database != nil {
            PosixFile.removeIfPresent(directory.appendingPathComponent(name).path)
        }
        try? FileManager.default.removeItem(at: images)
        let stagedImages = staging.appendingPathComponent("market-images")
        if FileManager.default.fileExists(atPath: stagedImages.path) {
            try PosixFile.rename(stagedImages.path, to: images.path)
        }
        if let database {
            try PosixFile.rename(database.path, to: directory.appendingPathComponent("sprout.sqlite").path)
        }
        try PosixIO.fsync(path: directory.path)
    }

    // MARK: - PostgreSQL

    /// The schema a restore writes to, and what is in the way.
    struct PostgresTarget: Sendable {
        let schema: String
        let schemaExists: Bool
        let tableCount: Int
        /// The archive's schema exists in the target database under another name than the target's.
        let archiveSchemaTaken: Bool

        static func inspect(url: String, schema configured: String?, archiveSchema: String, logger: Logger) async throws -> PostgresTarget {
            let client = PostgresClient(
                configuration: try .sprout(url: url, schema: configured, maximumConnections: 1, statementTimeout: .seconds(30)),
                backgroundLogger: logger
            )
            return try await PostgresPoolsRun.whileRunning([client], logger: logger) {
                try await client.withConnection { connection in
                    func value(_ query: PostgresQuery) async throws -> String? {
                        for try await row in try await connection.query(query, logger: PostgresExecutor.silent) {
                            return try row.decode(String?.self)
                        }
                        return nil
                    }
                    var schema = configured ?? "public"
                    if configured == nil, let current = try await value("SELECT current_schema()::text") { schema = current }
                    let exists = try await value("SELECT 'yes' FROM pg_namespace WHERE nspname = \(schema)") != nil
                    let tables = Int(try await value("SELECT count(*)::text FROM information_schema.tables WHERE table_schema = \(schema)") ?? "0") ?? 0
                    let archiveSchemaExists = try await value("SELECT 'yes' FROM pg_namespace WHERE nspname = \(archiveSchema)") != nil
                    let taken = archiveSchema != schema && archiveSchemaExists
                    return PostgresTarget(schema: schema, schemaExists: exists, tableCount: tables, archiveSchemaTaken: taken)
                }
            }
        }
    }

    /// pg_restore's script, run by psql in one transaction: a failure anywhere leaves the database as it was.
    /// The archive's schema is made empty (or dropped with `--force`), restored, and renamed to the target's.
    private func restorePostgres(dump: String, into target: PostgresTarget, url: String, staging: URL, manifest: BackupManifest) async throws {
        let tools = try PostgresTools(url: url)
        let archiveSchema = manifest.database.schema ?? "public"
        let list = staging.appendingPathComponent("restore.list").path
        try await tools.run("pg_restore", ["--list", dump], output: list)
        // The schema itself and extensions are made here (pg_trgm in public, as the migrations make it).
        let kept = try String(contentsOfFile: list, encoding: .utf8).split(separator: "\n").filter { line in
            !line.contains(" SCHEMA - ") && !line.contains(" EXTENSION - ") && !line.contains("COMMENT - EXTENSION") && !line.contains("COMMENT - SCHEMA")
        }
        try (kept.joined(separator: "\n") + "\n").write(toFile: list, atomically: false, encoding: .utf8)
        let script = staging.appendingPathComponent("restore.sql").path
        try await tools.run("pg_restore", ["--no-owner", "--no-acl", "--use-list=\(list)", "--file=\(script)", dump])
        let target_ = PostgresTools.quoted(target.schema), archived = PostgresTools.quoted(archiveSchema)
        var lines = ["\\set ON_ERROR_STOP on"]
        if target.schemaExists {
            // --force: whatever is there goes (for public that includes its extensions; pg_trgm is made again).
            // Else the schema is empty: kept when the archive's has its name, dropped to make room for the rename.
            if force {
                lines.append("DROP SCHEMA \(target_) CASCADE;")
            } else if archiveSchema != target.schema {
                lines.append("DROP SCHEMA \(target_);")
            }
        }
        lines += [
            "CREATE SCHEMA IF NOT EXISTS \(archived);",
            "CREATE SCHEMA IF NOT EXISTS public;",
            "CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;",
            "\\i \(script)",
        ]
        if archiveSchema != target.schema { lines.append("ALTER SCHEMA \(archived) RENAME TO \(target_);") }
        // The counts the manifest promises, checked inside the transaction: a mismatch rolls everything back.
        for (table, count) in manifest.tables.sorted(by: { $0.key < $1.key }) {
            let name = "\(target_).\(PostgresTools.quoted(table))"
            lines.append("DO $$ BEGIN IF (SELECT count(*) FROM \(name)) <> \(count) THEN RAISE EXCEPTION 'row count of \(table) differs from the manifest'; END IF; END $$;")
        }
        let wrapper = staging.appendingPathComponent("restore-wrapper.sql").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: wrapper, atomically: false, encoding: .utf8)
        try await tools.run("psql", ["--no-psqlrc", "--quiet", "--single-transaction", "--file=\(wrapper)"])
    }
}
