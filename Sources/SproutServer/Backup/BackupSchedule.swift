import Foundation
import Logging
import ServiceLifecycle

/// `serve --backup-every` (`BACKUP_EVERY`): backups made inside the server, one every interval, until graceful
/// shutdown (a backup under way then finishes first; its archive is whole or absent).
///
/// The times are multiples of the interval since 1970 (UTC), so every server with the same interval picks the
/// same instant; on PostgreSQL the first to take Sprout's backup lock makes the backup and the others skip that
/// turn (`SproutBackup.skipsWhenLocked`). Servers whose clocks differ by more than a backup's duration can still
/// both make one (docs/operations.md). A failed backup is logged as an error and the server goes on; the next
/// turn tries again. After each backup the directory keeps the newest `BACKUP_KEEP` (default 7) archives.
public struct BackupSchedule: Service {
    public let configuration: SproutConfiguration
    public let interval: Duration
    /// The database to back up: `configuration.data.database` unless given (tests give a PostgreSQL schema).
    let database: DatabaseSettings
    let logger: Logger
    /// Told of each finished backup (metrics: last success, duration, size).
    let onBackup: @Sendable (BackupResult) -> Void
    /// Told of each failed one.
    var onFailure: @Sendable (any Error) -> Void = { _ in }

    public init(
        configuration: SproutConfiguration, interval: Duration, logger: Logger, database: DatabaseSettings? = nil,
        onBackup: @escaping @Sendable (BackupResult) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.database = database ?? configuration.data.database
        self.interval = interval
        self.logger = logger
        self.onBackup = onBackup
    }

    /// The schedule `configuration` asks for, as a list to add to a service group (empty without `BACKUP_EVERY`);
    /// each backup is recorded in `metrics` (last success, duration, size, failures).
    public static func services(_ configuration: SproutConfiguration, logger: Logger, metrics: SproutMetrics = .off) -> [any Service] {
        guard let every = configuration.backup.every else { return [] }
        var schedule = BackupSchedule(configuration: configuration, interval: every, logger: logger) { metrics.backups.record($0) }
        schedule.onFailure = { _ in metrics.backups.failures.increment() }
        return [schedule]
    }

    public func run() async throws {
        logger.info("scheduled backups", metadata: [
            "every": "\(interval)", "directory": "\(configuration.backup.directory(dataDirectory: configuration.data.directory))",
        ])
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: delayToNextTurn(after: Date()))
                } catch {
                    return  // shutdown
                }
                await backUpOnce()
            }
        }
    }

    /// Time until the next multiple of the interval since 1970.
    func delayToNextTurn(after now: Date) -> Duration {
        let period = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let seconds = now.timeIntervalSince1970
        let next = (floor(seconds / period) + 1) * period
        return .milliseconds(Int64((next - seconds) * 1000))
    }

    /// One turn: a backup (skipped if another process holds the lock), then the old ones pruned. Never throws.
    public func backUpOnce() async {
        var backup = SproutBackup(configuration: configuration, logger: logger)
        backup.database = database
        backup.skipsWhenLocked = true
        do {
            guard let result = try await backup.run() else { return }
            onBackup(result)
            let keep = configuration.backup.keep ?? BackupSettings.scheduledKeepDefault
            if keep > 0 {
                let removed = try SproutBackup.keepNewest(keep, in: URL(fileURLWithPath: result.path).deletingLastPathComponent().path)
                if !removed.isEmpty { logger.info("old backups removed", metadata: ["removed": "\(removed.joined(separator: ", "))"]) }
            }
        } catch {
            onFailure(error)
            logger.error("scheduled backup failed", metadata: ["error": "\(String(describing: error))"])
        }
    }
}

/// Service Lifecycle logs each service's description; this one names the schedule, not the configuration it keeps.
extension BackupSchedule: CustomStringConvertible {
    public var description: String { "BackupSchedule(every: \(interval), database: \(database))" }
}
