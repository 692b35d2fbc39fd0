import Foundation
import GRDB
import Testing
@testable import SproutServer

/// SQLite backups are copied in small steps inside one snapshot.
@Suite struct SteppedSQLiteCopyTests {
    /// Without the snapshot held across steps, SQLite restarts a backup whenever another connection wrote between
    /// two steps: under steady writes a stepped copy would never end.
    @Test func writesBetweenStepsNeitherRestartTheCopyNorReachIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-stepped-copy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("source.sqlite").path
        let writer = try DatabasePool(path: path)  // WAL, as the server runs it
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
            for _ in 0..<200 { try db.execute(sql: "INSERT INTO rows (data) VALUES (randomblob(4000))") }
        }
        let source = try DatabaseQueue(path: path)
        let copy = folder.appendingPathComponent("copy.sqlite").path
        var steps = 0
        try SproutBackup.copyInSteps(from: source, to: copy, pagesPerStep: 10) {
            steps += 1
            try writer.write { db in try db.execute(sql: "INSERT INTO rows (data) VALUES (randomblob(4000))") }
            if steps > 1000 { throw CancellationError() }  // restarting for ever
        }
        try source.close()
        let copied = try DatabaseQueue(path: copy)
        defer { try? copied.close() }
        let rows = try copied.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM rows") }
        let problems = try copied.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        let written = try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM rows") }
        #expect(steps >= 10 && steps < 40, "about 200 pages in steps of 10: \(steps) steps")
        #expect(rows == 200, "the copy is the snapshot taken before the first step")
        #expect(written == 200 + steps)
        #expect(problems == ["ok"])
    }
}
