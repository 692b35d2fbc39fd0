import Crypto
import Foundation
import GRDB
import Logging
import PostgresNIO
import SproutWire

/// One online backup: a consistent copy of the database, the market's image files and a manifest, in one ustar
/// archive (`sprout-backup-<UTC time>.tar`), written while servers keep serving.
///
/// - SQLite: the online backup API on a connection of the backup's own, 8 MiB per step, all steps inside one read
///   transaction (`copyInSteps`): it copies one snapshot, never takes the write lock, and writes between steps
///   cannot restart it; in WAL mode writers go on beside it. `VACUUM INTO`, also one read transaction, rebuilds
///   every b-tree and took longer and held writers back more under 1,000 creates/s (docs/benchmarks.md). The copy
///   must pass `PRAGMA integrity_check`; its rows are counted for the manifest.
/// - PostgreSQL: `pg_dump --format=custom` of the configured schema, in a snapshot exported by a REPEATABLE READ
///   transaction that also counts the rows, so the counts are the dump's. `pg_restore --list` must read it back.
/// - Images: every file under `DATA_DIR/market-images` but `tmp/` (uploads still staged), copied after the
///   database snapshot. Files are never rewritten, only placed and deleted; an image deleted between the snapshot
///   and its copy is missing from the archive (docs/operations.md).
/// - Never in it: logs, staged uploads, the secrets key (`BackupManifest.SecretsKey`).
///
/// The archive is written as `NAME.partial`, fsynced, then renamed: a file with the final name is whole.
public struct SproutBackup: Sendable {
    /// How SQLite is copied: the online backup API in steps (the default), or `VACUUM INTO`, kept for
    /// `scripts/bench --backup`'s comparison (`sprout backup --sqlite-method vacuum-into`).
    public enum SQLiteMethod: String, Sendable, CaseIterable {
        case vacuumInto = "vacuum-into"
        case backupAPI = "backup-api"
    }

    public let configuration: SproutConfiguration
    /// The database to copy: `configuration.data.database` unless set (tests give a PostgreSQL schema).
    public var database: DatabaseSettings
    /// Where the archive goes: a directory (the name is made), or a file path.
    public let output: String
    public var sqliteMethod: SQLiteMethod = .backupAPI
    /// PostgreSQL: skip this backup when another process holds Sprout's backup lock (scheduled backups).
    public var skipsWhenLocked = false
    let logger: Logger

    public init(configuration: SproutConfiguration, output: String? = nil, logger: Logger) {
        self.configuration = configuration
        database = configuration.data.database
        self.output = output ?? configuration.backup.directory(dataDirectory: configuration.data.directory)
        self.logger = logger
    }

    /// The names backups get (`archiveName`), and the only files `keepNewest` deletes.
    static func isArchiveName(_ name: String) -> Bool {
        name.wholeMatch(of: #/sprout-backup-[0-9]{8}T[0-9]{6}\.[0-9]{3}Z\.tar/#) != nil
    }

    static func archiveName(at date: Date) -> String {
        let stamp = UTCTimestamp.string(from: date, fractionDigits: 3)  // 2026-11-20T08:15:00.123Z
            .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        return "sprout-backup-\(stamp).tar"
    }

    /// PostgreSQL's advisory lock class for backups ("SprB"), with the schema's hash as the second key: one backup
    /// at a time per schema.
    static let lockClass: Int32 = 0x5370_7242

    /// Makes the archive and answers where it is. Nil only when `skipsWhenLocked` and another process was
    /// backing up the same PostgreSQL database.
    public func run() async throws -> BackupResult? {
        let started = ContinuousClock.now
        let createdAt = Date()
        var isDirectory: ObjCBool = false
        let target: URL
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
            target = URL(fileURLWithPath: output).appendingPathComponent(Self.archiveName(at: createdAt))
        } else if output.hasSuffix("/") || output == configuration.backup.directory(dataDirectory: configuration.data.directory) {
            try PrivateDirectory.ensure(URL(fileURLWithPath: output))
            target = URL(fileURLWithPath: output).appendingPathComponent(Self.archiveName(at: createdAt))
        } else {
            target = URL(fileURLWithPath: output)
            try PrivateDirectory.ensure(target.deletingLastPathComponent())
        }
        guard !FileManager.default.fileExists(atPath: target.path) else {
            throw BackupError.failed("\(target.path) exists already; backups never overwrite a file")
        }
        let directory = target.deletingLastPathComponent()
        let workName = ".\(target.lastPathComponent).\(UUID().uuidString.prefix(8))"
        let databaseCopy = directory.appendingPathComponent(workName + ".database")
        defer { try? FileManager.default.removeItem(at: databaseCopy) }

        let snapshot: DatabaseSnapshot
        switch database {
        case .sqlite(let path):
            snapshot = try await copySQLite(at: path, to: databaseCopy.path)
        case .postgres(_, let schema, _):
            // pg_dump and the backup's session lock need a session: PostgreSQL itself, never a pooler.
            guard let url = database.sessionURL, let dumped = try await dumpPostgres(url: url, schema: schema, to: databaseCopy.path) else { return nil }
            snapshot = dumped
        }

        let configuration = configuration
        let secretsKeySource = secretsKeySource
        let (manifest, size) = try await Self.onThread(background: true) {
            try Self.writeArchive(
                to: target, databaseCopy: databaseCopy.path, snapshot: snapshot, createdAt: createdAt,
                dataDirectory: configuration.data.directory, secretsKeySource: secretsKeySource
            )
        }
        let result = BackupResult(path: target.path, bytes: size, duration: ContinuousClock.now - started, finishedAt: Date(), manifest: manifest)
        logger.info("backup written", metadata: [
            "path": "\(result.path)", "bytes": "\(result.bytes)", "seconds": "\(Self.seconds(result.duration))",
            "files": "\(manifest.files.count)", "rows": "\(manifest.tables.values.reduce(0, +))",
        ])
        return result
    }

    /// Writes the archive as `NAME.partial`, fsyncs it and gives it its final name; answers its manifest and size.
    private static func writeArchive(
        to target: URL, databaseCopy: String, snapshot: DatabaseSnapshot, createdAt: Date, dataDirectory: String, secretsKeySource: String
    ) throws -> (BackupManifest, Int64) {
        let directory = target.deletingLastPathComponent()
        let databaseCopy = URL(fileURLWithPath: databaseCopy)
        let partial = URL(fileURLWithPath: target.path + ".partial")
        let descriptor = open(partial.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BackupError.io("create", partial.path, errno) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
            try? FileManager.default.removeItem(at: partial)
        }
        var writer = TarWriter(descriptor: descriptor, path: partial.path)
        var files: [BackupManifest.File] = []
        files.append(try add(databaseCopy.path, as: snapshot.database.file, to: &writer, modified: createdAt))
        files += try addImages(under: dataDirectory, to: &writer)
        let manifest = BackupManifest(
            sproutVersion: SproutVersion.current,
            createdAt: UTCTimestamp.string(from: createdAt, fractionDigits: 3),
            database: snapshot.database,
            migrations: snapshot.migrations,
            schemaVersion: snapshot.migrations.count,
            tables: snapshot.tables,
            files: files,
            secretsKey: BackupManifest.SecretsKey(included: false, check: snapshot.keyCheck, source: secretsKeySource)
        )
        let manifestBytes = try manifest.encoded()
        try writer.add(name: BackupManifest.fileName, bytes: manifestBytes, modified: createdAt)
        let sums = (files.map { "\($0.sha256)  \($0.path)" } + ["\(SHA256.hash(data: manifestBytes).hexString)  \(BackupManifest.fileName)"])
            .joined(separator: "\n") + "\n"
        try writer.add(name: BackupManifest.sumsFileName, bytes: Array(sums.utf8), modified: createdAt)
        try writer.finish()
        guard fsync(descriptor) == 0 else { throw BackupError.io("fsync", partial.path, errno) }
        closed = true
        guard close(descriptor) == 0 else { throw BackupError.io("close", partial.path, errno) }
        // link, not rename: it fails if the final name was taken meanwhile, so no archive is ever replaced.
        guard link(partial.path, target.path) == 0 else { throw BackupError.io("rename to", target.path, errno) }
        try PosixIO.fsync(path: directory.path)
        return (manifest, writer.offset)
    }

    /// Deletes all but the newest `count` archives named as `isArchiveName` says in `directory`; answers what it deleted.
    /// Nothing else in the directory is touched.
    @discardableResult
    public static func keepNewest(_ count: Int, in directory: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter(isArchiveName)
            .sorted()  // the names are UTC times, so their order is their age
        let doomed = names.dropLast(max(0, count))
        for name in doomed {
            try FileManager.default.removeItem(atPath: URL(fileURLWithPath: directory).appendingPathComponent(name).path)
        }
        return Array(doomed)
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    private var secretsKeySource: String {
        configuration.data.secretsKey == nil ? "DATA_DIR/secrets.key" : "SECRETS_KEY"
    }

    // MARK: - The database

    struct DatabaseSnapshot: Sendable {
        var database: BackupManifest.Database
        var migrations: [String]
        var tables: [String: Int]
        var keyCheck: String?
    }

    private func copySQLite(at path: String, to copy: String) async throws -> DatabaseSnapshot {
        guard FileManager.default.fileExists(atPath: path) else {
            throw BackupError.failed("there is no SQLite database at \(path) (DATA_DIR or --data-dir)")
        }
        let method = sqliteMethod
        return try await Self.onThread(background: true) {
            var configuration = Configuration()
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA busy_timeout = 5000") }
            let source = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? source.close() }
            switch method {
            case .vacuumInto:
                // One read transaction: a snapshot, copied page by page of the b-trees, no write lock taken.
                try source.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
            case .backupAPI:
                try Self.copyInSteps(from: source, to: copy)
            }
            return try Self.inspectSQLite(copy, method: method == .vacuumInto ? "VACUUM INTO" : "sqlite3_backup (stepped, one snapshot)")
        }
    }

    /// Pages copied per backup step: 8 MiB of 4 KiB pages, flushed to disk before the next step.
    static let pagesPerStep: CInt = 2048

    /// The online backup API in steps of `pagesPerStep`, all inside one read transaction of `source`'s: the snapshot
    /// cannot move, so other processes' writes between steps cannot restart the copy (SQLite restarts a backup
    /// only when its source connection starts a new read). After each step the copy's new pages are flushed
    /// (`fdatasync`), so the disk never holds a gigabyte of the backup's writes in front of the server's.
    /// `afterStep` is for tests (a write between steps).
    static func copyInSteps(
        from source: DatabaseQueue, to copy: String, pagesPerStep: CInt = pagesPerStep, afterStep: () throws -> Void = {}
    ) throws {
        let destination = try DatabaseQueue(path: copy)
        defer { try? destination.close() }
        let flushed = open(copy, O_RDONLY | O_CLOEXEC)
        guard flushed >= 0 else { throw BackupError.io("open", copy, errno) }
        defer { close(flushed) }
        try withoutActuallyEscaping(afterStep) { afterStep in
            try source.inDatabase { db in
                try db.execute(sql: "BEGIN DEFERRED")
                defer { try? db.execute(sql: "COMMIT") }
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")  // the read starts here
                try destination.writeWithoutTransaction { target in
                    try db.backup(to: target, pagesPerStep: pagesPerStep) { progress in
                        guard !progress.isCompleted else { return }
                        guard fdatasync(flushed) == 0 else { throw BackupError.io("fdatasync", copy, errno) }
                        try afterStep()
                    }
                }
            }
        }
    }

    /// The copy's integrity check, its row counts, migrations and key check.
    static func inspectSQLite(_ path: String, method: String = "") throws -> DatabaseSnapshot {
        let copy = try DatabaseQueue(path: path)
        defer { try? copy.close() }
        return try copy.inDatabase { db in
            let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            guard problems == ["ok"] else { throw BackupError.integrity(problems.prefix(5).joined(separator: "; ")) }
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name
                """)
            var tables: [String: Int] = [:]
            for name in names {
                tables[name] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(PostgresTools.quoted(name))") ?? 0
            }
            let migrations = names.contains("sprout_migrations") ? try String.fetchAll(db, sql: SQLMigrationTable.applied) : []
            let keyCheck = names.contains("sprout_secrets")
                ? try String.fetchOne(db, sql: "SELECT value FROM sprout_secrets WHERE name = ?", arguments: [SecretsAtRest.keyCheckName])
                : nil
            return DatabaseSnapshot(
                database: .init(kind: "sqlite", file: "database/sprout.sqlite", method: method),
                migrations: orderedMigrations(migrations), tables: tables, keyCheck: keyCheck
            )
        }
    }

    /// Applied migrations in the order Sprout applies them; names this Sprout does not know (a newer one's) last.
    static func orderedMigrations(_ applied: [String]) -> [String] {
        let known = SproutMigrations.all.map(\.name)
        let appliedSet = Set(applied)
        return known.filter(appliedSet.contains) + applied.filter { !known.contains($0) }.sorted()
    }

    private func dumpPostgres(url: String, schema: String?, to copy: String) async throws -> DatabaseSnapshot? {
        let tools = try PostgresTools(url: url)
        _ = try tools.locate("pg_dump")  // before anything else: a missing tool is the likeliest failure
        let client = PostgresClient(
            configuration: try .sprout(url: url, schema: schema, maximumConnections: 1, statementTimeout: .seconds(0)),
            backgroundLogger: logger
        )
        let skips = skipsWhenLocked
        let logger = logger
        return try await PostgresPoolsRun.whileRunning([client], logger: logger) {
            try await client.withConnection { connection in
                func rows(_ sql: String) async throws -> [[String?]] {
                    var result: [[String?]] = []
                    for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresExecutor.silent) {
                        result.append(row.map { cell in cell.bytes.map { String(buffer: $0) } })
                    }
                    return result
                }
                // One backup at a time per schema; released when this connection closes, whatever happens.
                // A scheduled backup skips its turn when another process holds it; `sprout backup` waits.
                let lock = "(\(Self.lockClass), hashtext(current_schema()))"
                if skips {
                    guard try await rows("SELECT pg_try_advisory_lock\(lock)::text").first?.first ?? nil == "true" else {
                        logger.info("backup skipped: another process is backing up this database")
                        return nil
                    }
                } else {
                    _ = try await rows("SELECT pg_advisory_lock\(lock)::text")
                }
                _ = try await rows("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                guard let snapshotID = try await rows("SELECT pg_export_snapshot()").first?.first ?? nil,
                      let dumped = try await rows("SELECT current_schema()::text").first?.first ?? nil
                else { throw BackupError.failed("PostgreSQL gave no snapshot or no current schema (does the schema exist?)") }
                let tableNames = try await rows("""
                    SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()
                    AND table_type = 'BASE TABLE' ORDER BY table_name
                    """).compactMap { $0.first ?? nil }
                var tables: [String: Int] = [:]
                for name in tableNames {
                    let count = try await rows("SELECT count(*)::text FROM \(PostgresTools.quoted(name))").first?.first ?? nil
                    tables[name] = count.flatMap { Int($0) } ?? 0
                }
                let migrations = tableNames.contains("sprout_migrations") ? try await rows(SQLMigrationTable.applied).compactMap { $0.first ?? nil } : []
                let keyCheck = tableNames.contains("sprout_secrets")
                    ? try await rows("SELECT value FROM sprout_secrets WHERE name = '\(SecretsAtRest.keyCheckName)'").first?.first ?? nil
                    : nil
                // While this transaction stays open, pg_dump reads exactly what was counted.
                try await tools.run("pg_dump", [
                    "--format=custom", "--no-owner", "--no-acl", "--snapshot=\(snapshotID)",
                    "--schema=" + PostgresTools.quoted(dumped), "--file=\(copy)",
                ])
                _ = try await rows("COMMIT")
                // The dump must read back whole: its table of contents and every data block.
                try await tools.run("pg_restore", ["--list", copy])
                try await tools.run("pg_restore", ["--file=/dev/null", copy])
                return DatabaseSnapshot(
                    database: .init(kind: "postgresql", file: "database/sprout.pgdump", method: "pg_dump --format=custom", schema: dumped),
                    migrations: Self.orderedMigrations(migrations), tables: tables, keyCheck: keyCheck
                )
            }
        }
    }

    // MARK: - Files

    private static func add(_ path: String, as name: String, to writer: inout TarWriter, modified: Date) throws -> BackupManifest.File {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BackupError.io("open", path, errno) }
        defer { close(descriptor) }
        let size = try PosixIO.size(of: descriptor, path: path)
        let sum = try writer.add(name: name, from: descriptor, size: size, modified: modified, sourcePath: path)
        return BackupManifest.File(path: name, bytes: size, sha256: sum)
    }

    /// Every placed image file, in name order; one deleted since it was listed is left out.
    private static func addImages(under dataDirectory: String, to writer: inout TarWriter) throws -> [BackupManifest.File] {
        let root = URL(fileURLWithPath: dataDirectory).appendingPathComponent("market-images")
        guard let shards = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return [] }
        var files: [BackupManifest.File] = []
        for shard in shards.sorted() where shard != "tmp" {
            let folder = root.appendingPathComponent(shard)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for name in names.sorted() {
                let path = folder.appendingPathComponent(name).path
                let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                if descriptor < 0 {
                    if errno == ENOENT { continue }  // deleted since it was listed
                    throw BackupError.io("open", path, errno)
                }
                defer { close(descriptor) }
                var status = stat()
                guard fstat(descriptor, &status) == 0 else { throw BackupError.io("stat", path, errno) }
                guard (status.st_mode & S_IFMT) == S_IFREG else { continue }
                let archived = "market-images/\(shard)/\(name)"
                let sum = try writer.add(
                    name: archived, from: descriptor, size: Int64(status.st_size),
                    modified: Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)), sourcePath: path
                )
                files.append(BackupManifest.File(path: archived, bytes: Int64(status.st_size), sha256: sum))
            }
        }
        return files
    }

    /// Blocking work (SQLite's copy, file reads) on a thread of its own, never on an event loop. `background`: the
    /// thread runs at nice 10, so that on a busy machine the server's threads get the CPU first and the backup
    /// takes longer instead (docs/benchmarks.md, issue 27).
    static func onThread<Value: Sendable>(background: Bool = false, _ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                if background { lowerThisThreadsPriority() }
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// Linux gives each thread its own nice value; `setpriority` on the thread's id sets it for this thread alone.
    private static func lowerThisThreadsPriority() {
        #if os(Linux)
        var link = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &link, link.count - 1)  // "PID/task/TID"
        guard count > 0, let id = String(decoding: link.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: "/").last.flatMap({ UInt32($0) }) else { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id, 10)
        #endif
    }
}
