import Foundation

/// Backups made by the server itself, and where backups go.
///
/// | variable | default |
/// |---|---|
/// | `BACKUP_EVERY` (flag `serve --backup-every` wins) | unset: no scheduled backups. A duration: `90s`, `30m`, `6h`, `1d`, or seconds (60 s … 30 days) |
/// | `BACKUP_DIR` | `DATA_DIR/backups` |
/// | `BACKUP_KEEP` | scheduled backups keep the newest `7`; `sprout backup` deletes none unless set (or `--keep`). `0` keeps all |
public struct BackupSettings: Sendable {
    /// How often `serve` makes a backup; nil for never.
    public var every: Duration?
    /// Where archives go; nil for `DATA_DIR/backups`.
    public var directory: String?
    /// How many archives to keep in the backup directory; nil: 7 for scheduled backups, all for `sprout backup`.
    public var keep: Int?

    public static let scheduledKeepDefault = 7
    /// The shortest schedule accepted from the environment or the command line (tests set shorter ones in code).
    public static let shortestInterval: Duration = .seconds(60)

    static let variables = ["BACKUP_EVERY", "BACKUP_DIR", "BACKUP_KEEP"]

    public init(every: Duration? = nil, directory: String? = nil, keep: Int? = nil) {
        self.every = every
        self.directory = directory
        self.keep = keep
    }

    /// The backup directory for a data directory.
    public func directory(dataDirectory: String) -> String {
        directory ?? URL(fileURLWithPath: dataDirectory).appendingPathComponent("backups").path
    }

    static func read(from reader: EnvironmentReader, every flag: String? = nil) throws -> BackupSettings {
        var settings = BackupSettings()
        if let text = flag ?? reader.string("BACKUP_EVERY") {
            settings.every = try parseInterval(text, name: flag == nil ? "BACKUP_EVERY" : "--backup-every")
        }
        settings.directory = reader.string("BACKUP_DIR")
        if reader.string("BACKUP_KEEP") != nil {
            settings.keep = try reader.int("BACKUP_KEEP", in: 0...100_000, default: 0, zeroMeans: "keep every backup")
        }
        return settings
    }

    /// `90s`, `30m`, `6h`, `1d`, or a number of seconds; from 60 s to 30 days.
    public static func parseInterval(_ text: String, name: String = "BACKUP_EVERY") throws -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = trimmed
        var scale = 1.0
        if let last = trimmed.last, let unit = units[last] {
            number = String(trimmed.dropLast())
            scale = unit
        }
        guard let value = Double(number), value > 0, value * scale >= 60, value * scale <= 30 * 86_400 else {
            throw ConfigurationError("\(name) must be a duration from 60s to 30d, like 90s, 30m, 6h or 1d, got '\(text)'")
        }
        return .milliseconds(Int64(value * scale * 1000))
    }
}
