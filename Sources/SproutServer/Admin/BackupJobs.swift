import Foundation
import Logging

/// A backup asked for from the console, as the console shows it.
public struct BackupJob: Sendable, Equatable {
    public enum State: String, Sendable {
        case running, finished, failed
        /// The process running it stopped answering (it crashed or was killed): no archive came of it.
        case abandoned
    }

    public let id: Int
    public let state: State
    /// What it is doing now, in the console's words.
    public let phase: String
    /// Bytes written so far (of the database copy, then of the archive).
    public let bytes: Int64
    public let actor: String
    /// The archive's file name, when finished.
    public let archive: String?
    public let error: String?
    public let startedAt: Date
    public let updatedAt: Date
    public let finishedAt: Date?
}

/// One archive in the backup directory.
public struct BackupArchive: Sendable, Equatable {
    public let name: String
    public let bytes: Int64
    public let modifiedAt: Date
}

public enum BackupJobError: Error, CustomStringConvertible, Equatable {
    case alreadyRunning(Int)

    public var description: String {
        switch self {
        case .alreadyRunning(let id): "Backup \(id) is still running: one at a time."
        }
    }
}

/// "Back up now" from the console: the same `SproutBackup` as `sprout backup`, run in the background of the
/// process that was asked, one at a time across every process (the job's row is the lock), its progress kept in
/// `admin_jobs` so any process answers the page that polls it. A job whose process stops answering is shown as
/// abandoned after a minute without a heartbeat.
public struct BackupJobs: Sendable {
    /// A running job's row is touched this often; one untouched for `staleAfter` is abandoned.
    static let heartbeat: Duration = .seconds(1)
    static let staleAfter: TimeInterval = 60

    let executor: any SQLExecutor
    let audit: AuditTrail
    let configuration: SproutConfiguration
    let databaseSettings: DatabaseSettings
    let logger: Logger

    public init(database: SproutDatabase, configuration: SproutConfiguration, logger: Logger) {
        executor = database.executor
        audit = AuditTrail(database: database, configuration: configuration)
        self.configuration = configuration
        databaseSettings = database.settings
        self.logger = logger
    }

    /// The directory archives go to (`BACKUP_DIR`, else `DATA_DIR/backups`).
    public var directory: String { configuration.backup.directory(dataDirectory: configuration.data.directory) }

    /// Starts a backup in the background; answers its job id at once. Refused while another runs.
    public func start(by actor: AuditActor) async throws -> Int {
        let now = Date().truncatedToMilliseconds
        let staleBefore = now.addingTimeInterval(-Self.staleAfter)
        let free: SQLStatement = "NOT EXISTS (SELECT 1 FROM admin_jobs WHERE kind = 'backup' AND state = 'running' AND updated_at >= \(bind: staleBefore))"
        let rows = try await executor.writeSequence(
            [
                // Jobs whose process died are marked, so they do not block the next one.
                "UPDATE admin_jobs SET state = 'abandoned', finished_at = \(bind: now) WHERE kind = 'backup' AND state = 'running' AND updated_at < \(bind: staleBefore)",
                """
                INSERT INTO admin_jobs (kind, state, phase, bytes, actor, started_at, updated_at)
                SELECT 'backup', 'running', 'starting', 0, \(bind: actor.name), \(bind: now), \(bind: now) WHERE \(free)
                """,
            ] + audit.prune(at: now) + [
                audit.record(
                    AuditEntry(action: "backup.create", target: "backup", changes: ["directory": .init(before: nil, after: directory)]),
                    by: actor, at: now,
                    when: "EXISTS (SELECT 1 FROM admin_jobs WHERE kind = 'backup' AND state = 'running' AND started_at = \(bind: now) AND actor = \(bind: actor.name))",
                    target: "'backup:' || (SELECT max(id) FROM admin_jobs WHERE kind = 'backup')"
                ),
                "SELECT max(id) AS value FROM admin_jobs WHERE kind = 'backup' AND state = 'running' AND started_at = \(bind: now) AND actor = \(bind: actor.name)",
            ],
            as: SQLOptionalInt.self
        )
        guard let id = rows.first?.value else {
            let running = try await executor.readFirst(
                "SELECT max(id) AS value FROM admin_jobs WHERE kind = 'backup' AND state = 'running'", as: SQLOptionalInt.self
            )?.value
            throw BackupJobError.alreadyRunning(running ?? 0)
        }
        let jobs = self
        Task.detached { await jobs.run(id) }
        return id
    }

    /// A job, as it stands.
    public func job(_ id: Int) async throws -> BackupJob? {
        try await executor.readFirst("SELECT \(raw: Self.columns) FROM admin_jobs WHERE id = \(bind: id) AND kind = 'backup'", as: BackupJob.self)
            .map(abandonedIfStale)
    }

    /// The newest jobs first.
    public func recent(limit: Int = 10) async throws -> [BackupJob] {
        try await executor.read(
            "SELECT \(raw: Self.columns) FROM admin_jobs WHERE kind = 'backup' ORDER BY id DESC LIMIT \(bind: limit)", as: BackupJob.self
        ).map(abandonedIfStale)
    }

    /// The archives in the backup directory, newest first (what the console lists and lets one download).
    public func archives() throws -> [BackupArchive] {
        let directory = directory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter(SproutBackup.isArchiveName).sorted(by: >).compactMap { name in
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
            return BackupArchive(
                name: name, bytes: (attributes[.size] as? NSNumber)?.int64Value ?? 0,
                modifiedAt: attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
            )
        }
    }

    /// The path of an archive by its name, only when the name is one backups get and the file is there (a download
    /// can name nothing else).
    public func archivePath(named name: String) -> String? {
        guard SproutBackup.isArchiveName(name) else { return nil }
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    // MARK: - Running

    private func run(_ id: Int) async {
        var backup = SproutBackup(configuration: configuration, logger: logger)
        backup.database = databaseSettings
        let directory = directory
        await update(id, phase: "copying", bytes: 0)
        // The heartbeat reports how far the copy and the archive have come: the sizes of the work files the backup
        // writes beside its archive (`.NAME.database`, `NAME.partial`).
        let heartbeat = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.heartbeat)
                let (phase, bytes) = Self.progress(in: directory)
                await update(id, phase: phase, bytes: bytes)
            }
        }
        do {
            let result = try await backup.run()
            heartbeat.cancel()
            let name = result.map { URL(fileURLWithPath: $0.path).lastPathComponent }
            await finish(id, state: .finished, archive: name, bytes: result?.bytes ?? 0, error: name == nil ? "another process was backing up" : nil)
        } catch {
            heartbeat.cancel()
            logger.error("backup from the console failed", metadata: ["error": "\(String(describing: error))"])
            await finish(id, state: .failed, archive: nil, bytes: 0, error: Self.redacted(error, databaseSettings))
        }
    }

    /// An error's text without the database password (it may name the URL).
    private static func redacted(_ error: any Error, _ settings: DatabaseSettings) -> String {
        var message = String(describing: error)
        if case .postgres(let url, _, let pooler) = settings {
            message = SecretRedaction.redact(message, databaseURL: url)
            message = SecretRedaction.redact(message, databaseURL: pooler?.directURL)
        }
        return message
    }

    private static func progress(in directory: String) -> (String, Int64) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        func size(_ name: String) -> Int64 {
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        if let partial = names.first(where: { $0.hasSuffix(".tar.partial") }) { return ("archiving", size(partial)) }
        if let copy = names.first(where: { $0.hasPrefix(".") && $0.hasSuffix(".database") }) { return ("copying", size(copy)) }
        return ("copying", 0)
    }

    private func update(_ id: Int, phase: String, bytes: Int64) async {
        _ = try? await executor.write(
            """
            UPDATE admin_jobs SET phase = \(bind: phase), bytes = \(bind: Int(bytes)), updated_at = \(bind: Date().truncatedToMilliseconds)
            WHERE id = \(bind: id) AND state = 'running'
            """,
            as: SQLInt.self
        )
    }

    private func finish(_ id: Int, state: BackupJob.State, archive: String?, bytes: Int64, error: String?) async {
        let now = Date().truncatedToMilliseconds
        do {
            _ = try await executor.write(
                """
                UPDATE admin_jobs SET state = \(bind: state.rawValue), phase = \(bind: state.rawValue), bytes = \(bind: Int(bytes)),
                  result = \(bind: archive), error = \(bind: error), updated_at = \(bind: now), finished_at = \(bind: now)
                WHERE id = \(bind: id)
                """,
                as: SQLInt.self
            )
        } catch {
            logger.error("could not record the end of a backup job", metadata: ["job": "\(id)", "error": "\(error)"])
        }
    }

    private func abandonedIfStale(_ job: BackupJob) -> BackupJob {
        guard job.state == .running, Date().timeIntervalSince(job.updatedAt) > Self.staleAfter else { return job }
        return BackupJob(
            id: job.id, state: .abandoned, phase: "abandoned", bytes: job.bytes, actor: job.actor, archive: nil, error: job.error,
            startedAt: job.startedAt, updatedAt: job.updatedAt, finishedAt: nil
        )
    }

    static let columns = "id, state, phase, bytes, actor, result, error, started_at, updated_at, finished_at"
}

extension BackupJob: SQLRowDecodable {
    public init(row: some SQLRow) throws {
        self.init(
            id: try row.int("id"), state: State(rawValue: try row.string("state")) ?? .failed, phase: try row.string("phase"),
            bytes: Int64(try row.int("bytes")), actor: try row.string("actor"), archive: try row.optionalString("result"),
            error: try row.optionalString("error"), startedAt: try row.date("started_at"), updatedAt: try row.date("updated_at"),
            finishedAt: try row.optionalDate("finished_at")
        )
    }
}

/// One nullable integer column named `value`.
struct SQLOptionalInt: SQLRowDecodable {
    let value: Int?
    init(row: some SQLRow) throws { value = try row.optionalInt("value") }
}
