import Foundation
import Testing
@testable import SproutServer

/// The SQLite write-ahead log does not keep the size of its largest moment.
@Suite struct SQLiteWALTests {
    /// A transaction (or a backup's long snapshot) can grow the WAL far past its usual few MB; SQLite then reuses
    /// the file from its start but never shrinks it, unless `journal_size_limit` says so.
    @Test func theWALShrinksToItsLimitOnceALargeTransactionIsCheckpointed() async throws {
        try await withTestApp { _, database in
            guard case .sqlite(let path) = database.settings else { return }  // a SQLite matter
            let executor = database.executor
            try await executor.writeAll([SQLStatement("CREATE TABLE wal_probe (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")])
            // 80 MiB in one transaction: the WAL must hold all of it until the commit.
            try await executor.writeAll([SQLStatement("""
                INSERT INTO wal_probe (data) SELECT randomblob(4096)
                FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20480) SELECT x FROM n)
                """)])
            let wal = path + "-wal"
            let peak = try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? NSNumber).intValue
            #expect(peak > SQLiteExecutor.walSizeLimit)
            // The checkpointer copies it all into the database beside the writer; a write after that starts the
            // log again from its beginning, and that is when the file is cut to the limit.
            let deadline = Date().addingTimeInterval(30)
            var index = 0
            repeat {
                index += 1
                try await executor.writeAll([SQLStatement("INSERT INTO wal_probe (data) VALUES (zeroblob(\(raw: String(index))))")])
                let size = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? NSNumber
                if let size, size.intValue <= SQLiteExecutor.walSizeLimit { break }
                try await Task.sleep(for: .milliseconds(10))
            } while Date() < deadline
            let after = try #require(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? NSNumber).intValue
            #expect(after <= SQLiteExecutor.walSizeLimit, "the WAL stayed at \(after) bytes after peaking at \(peak)")
        }
    }
}
