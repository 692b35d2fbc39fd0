import ArgumentParser
import Foundation
import SproutServer

/// `sprout backup`: one online backup archive, beside running servers (docs/operations.md, "Back up and restore").
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write one backup archive (database, market images, manifest) while servers keep serving.",
        discussion: """
            The archive is a plain tar file named sprout-backup-<UTC time>.tar, in BACKUP_DIR (default DATA_DIR/backups) \
            unless --output names a directory or a file. Its path is the last line printed. The secrets key is never in \
            it: keep a copy of DATA_DIR/secrets.key (or SECRETS_KEY) apart from the backups, a restore needs it.
            """
    )

    @Option(name: .long, help: "A directory for the archive, or the archive's file path (default BACKUP_DIR, else DATA_DIR/backups).")
    var output: String?

    @Option(name: .long, help: "Afterwards keep only the newest N archives in the archive's directory (only files named sprout-backup-….tar are deleted; env BACKUP_KEEP).")
    var keep: Int?

    @Option(name: .customLong("sqlite-method"), help: .hidden)
    var sqliteMethod: SproutBackup.SQLiteMethod = .backupAPI

    @OptionGroup var data: DataOptions

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be 1 or more") }
    }

    func run() async throws {
        let configuration = try data.configuration()
        let logger = makeLogger(level: configuration.server.logLevel)
        var backup = SproutBackup(configuration: configuration, output: output, logger: logger)
        backup.sqliteMethod = sqliteMethod
        try await SecretRedaction.redactingErrors(of: configuration) {
            guard let result = try await backup.run() else { throw ExitCode.failure }
            var removed: [String] = []
            if let keep = keep ?? configuration.backup.keep.flatMap({ $0 > 0 ? $0 : nil }) {
                removed = try SproutBackup.keepNewest(keep, in: URL(fileURLWithPath: result.path).deletingLastPathComponent().path)
                for name in removed { print("removed the older backup \(name)") }
            }
            try await Self.audit(result.path, removed: removed, configuration: configuration)
            let rows = result.manifest.tables.values.reduce(0, +)
            print("backup of \(rows) rows and \(result.manifest.files.count - 1) image files, \(result.bytes) bytes in \(Self.seconds(result.duration)) s")
            if result.manifest.secretsKey.check != nil {
                print("the secrets key is not in the archive: a restore needs \(result.manifest.secretsKey.source == "SECRETS_KEY" ? "the same SECRETS_KEY" : "a copy of \(configuration.data.directory)/secrets.key")")
            }
            print(result.path)
        }
    }

    /// The archive (and the older ones `--keep` removed) in the audit log, as `cli:<user>`, like the console's
    /// "back up now".
    private static func audit(_ path: String, removed: [String], configuration: SproutConfiguration) async throws {
        var changes: [String: AuditEntry.Change] = ["archive": .init(before: nil, after: path)]
        if !removed.isEmpty { changes["removed"] = .init(before: removed.joined(separator: ", "), after: nil) }
        let entry = AuditEntry(action: "backup.create", target: "backup:" + URL(fileURLWithPath: path).lastPathComponent, changes: changes)
        try await withDatabase(configuration) { database in
            try await database.prepare(configuration)
            try await AuditTrail(database: database, configuration: configuration).recordDone(entry, by: .commandLine())
        }
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}

extension SproutBackup.SQLiteMethod: ExpressibleByArgument {}

/// `sprout restore`: a checked archive into an empty data directory (and database), migrated forward.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup archive into an empty data directory (and DATABASE_URL's schema), then migrate it.",
        discussion: """
            Every checksum, the database copy and the secrets key are checked before anything is written; a damaged, \
            truncated or foreign file changes nothing. Stop servers on the target first. The key the archive's secrets \
            were sealed with comes from --secrets-key-file, SECRETS_KEY, or a secrets.key already in the data directory.
            """
    )

    @Argument(help: "The archive (sprout-backup-….tar).")
    var archive: String

    @Flag(name: .long, help: "Replace the database and images of a target that is not empty.")
    var force = false

    @Option(name: .customLong("secrets-key-file"), help: "The backed-up server's secrets.key; copied into the data directory once it is checked.")
    var secretsKeyFile: String?

    @OptionGroup var data: DataOptions

    func run() async throws {
        let configuration = try data.configuration()
        let logger = makeLogger(level: configuration.server.logLevel)
        let restore = SproutRestore(archive: archive, configuration: configuration, force: force, secretsKeyFile: secretsKeyFile, logger: logger)
        try await SecretRedaction.redactingErrors(of: configuration) {
            let result = try await restore.run()
            let rows = result.manifest.tables.values.reduce(0, +)
            print("restored \(rows) rows and \(result.manifest.files.count - 1) image files from a backup of \(result.manifest.createdAt) (Sprout \(result.manifest.sproutVersion))")
            if !result.migrated.isEmpty { print("migrated forward: \(result.migrated.count) migrations (\(result.migrated.joined(separator: ", ")))") }
            print("into \(configuration.data.database.description)")
        }
    }
}
