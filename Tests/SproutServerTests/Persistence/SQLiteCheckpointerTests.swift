import Foundation
import GRDB
import NIOConcurrencyHelpers
import Testing
@testable import SproutServer

/// WAL checkpoints run beside the writer, not inside its commits.
@Suite struct SQLiteCheckpointerTests {
    /// A backup's snapshot keeps every later page in the log. When it ends, SQLite's own automatic checkpoint
    /// would copy that whole backlog inside the writer's next commit, with every write queued behind it; the
    /// checkpointer copies it on its own thread and leaves the writer a short tail at most.
    @Test func theBacklogLeftByASnapshotIsNotCopiedInsideACommit() throws {
        try withDatabase { path, pool, checkpointer in
            let insert = "INSERT INTO rows (data) SELECT randomblob(4000) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3)"

            // A reader holds its snapshot (as a backup's copy does) while 4,000 pages are committed, a few at a time.
            let snapshot = try DatabaseQueue(path: path)
            var largestLog: Int32 = 0
            try snapshot.inDatabase { db in
                try db.beginTransaction(.deferred)
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM rows")
                for _ in 0..<1300 {
                    try pool.write { db in try db.execute(sql: insert) }
                }
                largestLog = checkpointer.logPages
                try db.commit()
            }
            try snapshot.close()
            #expect(largestLog > 3 * SQLiteCheckpointer.wakeAt, "the snapshot held \(largestLog) pages in the log")

            // Writes go on; the log must be copied and started over from its beginning.
            let deadline = Date().addingTimeInterval(30)
            var restarted = false
            while Date() < deadline {
                try pool.write { db in try db.execute(sql: "INSERT INTO rows (data) VALUES (randomblob(100))") }
                if checkpointer.logPages < SQLiteCheckpointer.wakeAt { restarted = true; break }
                Thread.sleep(forTimeInterval: 0.005)
            }
            let statistics = checkpointer.statistics
            #expect(restarted, "the log never started over: \(checkpointer.logPages) pages, \(statistics)")
            #expect(statistics.backgroundPasses >= 1)
            #expect(statistics.largestInlineCopy * 4 < largestLog, "the writer copied much of the \(largestLog)-page backlog: \(statistics)")
            let rows = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM rows") }
            #expect(rows.map { $0 > 3900 } == true)
        }
    }

    /// Under a steady stream of small commits the log keeps being started over, as with SQLite's own checkpoints.
    /// (How long it grows between restarts depends on how fast the background passes run: on a machine busy with
    /// the whole suite it reached 5,124 pages here and 10,901 in CI, so the bound is what no restart at all would
    /// give: every page the commits appended.)
    @Test func theLogKeepsStartingOverUnderSteadyWrites() throws {
        try withDatabase { path, pool, checkpointer in
            var largestLog: Int32 = 0
            var restarts = 0
            var previous: Int32 = 0
            var appended = 0
            for _ in 0..<6000 {
                try pool.write { db in try db.execute(sql: "INSERT INTO rows (data) VALUES (randomblob(3000))") }
                let pages = checkpointer.logPages
                if pages < previous { restarts += 1; appended += Int(pages) } else { appended += Int(pages - previous) }
                previous = pages
                largestLog = max(largestLog, pages)
            }
            let wal = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber).intValue
            // 6,000 commits of about two pages: without restarts the log would hold all of them (over 12,000 pages).
            #expect(appended > 12_000, "the commits appended \(appended) pages")
            #expect(restarts >= 2, "the log started over \(restarts) times")
            #expect(Int(largestLog) < appended, "the log grew to \(largestLog) of \(appended) pages")
            #expect(wal < Int(largestLog + 100) * 4200, "the WAL file is \(wal) bytes for a \(largestLog)-page log")
            #expect(checkpointer.statistics.inlineCheckpoints >= 1)
        }
    }

    /// The action after each commit (the event hub's wake-up) is called at the same depth on every commit. Kept as a
    /// bare closure in a generic lock box, each read reabstracted it and wrote it back wrapped in two more thunks:
    /// after a benchmark's 100,000 creates the writer called through 35,000 frames per commit, creates ran at a third
    /// of their rate, and the writer's stack would have overflowed in the end.
    @Test func theActionAfterEachCommitDoesNotGrowWithCommits() throws {
        try withDatabase { _, pool, checkpointer in
            let depths = NIOLockedValueBox<[Int]>([])
            checkpointer.afterEachCommit {
                let depth = Thread.callStackReturnAddresses.count
                depths.withLockedValue { $0.append(depth) }
            }
            for _ in 0..<2000 {
                try pool.write { db in try db.execute(sql: "INSERT INTO rows (data) VALUES (x'00')") }
            }
            let seen = depths.withLockedValue { $0 }
            #expect(seen.count >= 2000)
            #expect(seen.last == seen.dropFirst().first, "the stack at the second commit was \(seen.dropFirst().first ?? 0) frames deep, at the last \(seen.last ?? 0)")
        }
    }

    /// A fresh database opened as the server opens it, with a table `rows`.
    private func withDatabase(_ body: (String, DatabasePool, SQLiteCheckpointer) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-checkpointer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sprout.sqlite").path
        let (pool, checkpointer) = try SQLiteExecutor.open(path: path, readers: 2)
        defer {
            try? pool.close()
            checkpointer.close()
        }
        try pool.write { db in try db.execute(sql: "CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB NOT NULL)") }
        try body(path, pool, checkpointer)
    }
}
