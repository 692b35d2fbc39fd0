import Foundation

/// What a backup archive holds, written into it as `manifest.json` (pretty-printed, for a person too): which Sprout
/// made it, the schema (the applied migrations), every table's row count as the copy holds them, every file with
/// its size and SHA-256, and which secrets key the database's sealed secrets need.
public struct BackupManifest: Codable, Sendable, Equatable {
    public static let formatName = "sprout-backup"
    public static let currentFormatVersion = 1

    public struct Database: Codable, Sendable, Equatable {
        /// `sqlite` or `postgresql`.
        public var kind: String
        /// The copy's name in the archive.
        public var file: String
        /// How it was made: `sqlite3_backup (stepped, one snapshot)`, `VACUUM INTO`, `pg_dump --format=custom`.
        public var method: String
        /// PostgreSQL: the schema that was dumped.
        public var schema: String?
    }

    public struct File: Codable, Sendable, Equatable {
        public var path: String
        public var bytes: Int64
        public var sha256: String
    }

    /// The key that seals vendor secrets and the generated JWT key is never in the archive (docs/operations.md).
    public struct SecretsKey: Codable, Sendable, Equatable {
        public var included: Bool
        /// The database's key check (`sprout_secrets`' `secrets-key-check`): a restore compares the key it is
        /// given against it before writing anything. It tells keys apart without revealing one.
        public var check: String?
        /// Where the backing-up process took its key from: `SECRETS_KEY` or the data directory's `secrets.key`.
        public var source: String
    }

    public var format = BackupManifest.formatName
    public var formatVersion = BackupManifest.currentFormatVersion
    public var sproutVersion: String
    /// When the database copy was taken (UTC, ISO 8601).
    public var createdAt: String
    public var database: Database
    /// The applied migrations, in `SproutMigrations.all`'s order (unknown ones, from a newer Sprout, last).
    public var migrations: [String]
    /// How many migrations were applied: the schema's version.
    public var schemaVersion: Int
    /// Rows per table, counted in the copy.
    public var tables: [String: Int]
    /// Every file of the archive but this manifest and `SHA256SUMS`, in archive order.
    public var files: [File]
    public var secretsKey: SecretsKey

    static let fileName = "manifest.json"
    /// `sha256sum -c SHA256SUMS` checks an unpacked archive; it also covers the manifest.
    static let sumsFileName = "SHA256SUMS"

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [UInt8(ascii: "\n")]
    }
}

/// The version `sprout` reports in its backups' manifests.
public enum SproutVersion {
    public static let current = "0.27.0"
}

/// Everything a backup or restore refuses, in words for the person who ran it.
public enum BackupError: Error, CustomStringConvertible, Sendable {
    case io(String, String, Int32)
    case notABackup(String)
    case truncated(String)
    case damaged(String, String)
    case unsafeName(String)
    case fileChanged(String)
    case integrity(String)
    case targetNotEmpty(String)
    case secretsKey(String)
    case postgresTool(String)
    case failed(String)

    public var description: String {
        switch self {
        case .io(let operation, let path, let code): "\(operation) \(path): \(String(cString: strerror(code)))"
        case .notABackup(let path): "\(path) is not a Sprout backup archive"
        case .truncated(let path): "\(path) is truncated: the archive ends before its last file (or its end marker)"
        case .damaged(let path, let reason): "\(path) is damaged: \(reason)"
        case .unsafeName(let name): "cannot archive the file name \(name)"
        case .fileChanged(let path): "\(path) changed while it was being copied"
        case .integrity(let reason): "the database copy failed its integrity check: \(reason)"
        case .targetNotEmpty(let what): "\(what) is not empty; restore refuses to overwrite it without --force"
        case .secretsKey(let reason): reason
        case .postgresTool(let reason): reason
        case .failed(let reason): reason
        }
    }
}

/// What one finished backup left: for the log, the command's output and metrics (last success, duration, size).
public struct BackupResult: Sendable, Equatable {
    /// The archive's final path.
    public var path: String
    /// The archive's size.
    public var bytes: Int64
    /// From start to the archive's rename.
    public var duration: Duration
    /// When the archive got its final name.
    public var finishedAt: Date
    /// The archive's manifest.
    public var manifest: BackupManifest
}
