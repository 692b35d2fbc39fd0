import Foundation
import HummingbirdTesting
import Testing
@testable import SproutServer

/// "Back up now" from the console: a background job whose progress any process can read, one at a time, audited,
/// its archive listed and found by name only.
@Suite struct BackupJobsTests {
    private static let actor = AuditActor(name: "admin", accountID: 1, client: "127.0.0.1")

    @Test func aJobRunsInTheBackgroundAndItsArchiveIsListed() async throws {
        let data = NSTemporaryDirectory() + "sprout-backup-jobs-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withTestApp(configure: { $0.data.directory = data }) { client, database in
            let writer = try await client.signUp("writer")
            try await client.createPost("백업될 글", as: writer)
            var configuration = SproutConfiguration()
            configuration.data.directory = data
            let jobs = BackupJobs(database: database, configuration: configuration, logger: testLogger())
            let id = try await jobs.start(by: Self.actor)
            var job = try #require(try await jobs.job(id))
            for _ in 0..<300 where job.state == .running {
                try await Task.sleep(for: .milliseconds(100))
                job = try #require(try await jobs.job(id))
            }
            #expect(job.state == .finished, "\(job)")
            let archive = try #require(job.archive)
            #expect(job.bytes > 0 && job.actor == "admin")
            #expect(try jobs.archives().map(\.name) == [archive])
            #expect(jobs.archivePath(named: archive) != nil)
            #expect(jobs.archivePath(named: "../secrets.key") == nil && jobs.archivePath(named: "sprout.sqlite") == nil)
            let entries = try await AuditTrail(database: database, configuration: configuration).list(AuditFilter(action: "backup.create"))
            #expect(entries.map(\.target) == ["backup:\(id)"])
        }
    }

    @Test func oneAtATimeUnlessTheRunningOnesProcessStoppedAnswering() async throws {
        let data = NSTemporaryDirectory() + "sprout-backup-jobs-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withTestApp(configure: { $0.data.directory = data }) { _, database in
            var configuration = SproutConfiguration()
            configuration.data.directory = data
            let jobs = BackupJobs(database: database, configuration: configuration, logger: testLogger())
            // A job another process is running (its heartbeat is fresh).
            try await database.executor.writeAll([
                "INSERT INTO admin_jobs (kind, state, phase, bytes, actor, started_at, updated_at) VALUES ('backup', 'running', 'copying', 0, 'other', \(bind: Date()), \(bind: Date()))",
            ])
            await #expect(throws: BackupJobError.alreadyRunning(1)) { try await jobs.start(by: Self.actor) }
            #expect(try await AuditTrail(database: database, configuration: SproutConfiguration()).list(AuditFilter()).isEmpty)
            // Its process died a while ago: the job shows as abandoned and no longer blocks.
            try await database.executor.writeAll(["UPDATE admin_jobs SET updated_at = \(bind: Date(timeIntervalSinceNow: -120))"])
            #expect(try await jobs.job(1)?.state == .abandoned)
            let id = try await jobs.start(by: Self.actor)
            #expect(id == 2)
            #expect(try await jobs.recent().first(where: { $0.id == 1 })?.state == .abandoned)
            for _ in 0..<300 where try await jobs.job(id)?.state == .running { try await Task.sleep(for: .milliseconds(100)) }
            #expect(try await jobs.job(id)?.state == .finished)
        }
    }
}
