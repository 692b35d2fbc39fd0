import Foundation
import GRDB
import HTTPTypes
import Testing
@testable import SproutServer

/// A full disk or a database that is away is answered 503 with `Retry-After`, not 500: the client and the load
/// balancer try again, and reads go on.
struct UnavailableStorageTests {
    @Test func outOfSpaceErrorsFromEachLayerMeanTheDiskIsFull() {
        #expect(UnavailableStorage(DatabaseError(resultCode: .SQLITE_FULL)) == .diskFull)
        #expect(UnavailableStorage(PosixFile.Failure(operation: "write", path: "/data/x.part", code: ENOSPC)) == .diskFull)
        #expect(UnavailableStorage(PosixFile.Failure(operation: "write", path: "/data/x.part", code: EDQUOT)) == .diskFull)
        #expect(UnavailableStorage(CocoaError(.fileWriteOutOfSpace)) == .diskFull)
        let posix = NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))
        #expect(UnavailableStorage(NSError(domain: NSCocoaErrorDomain, code: 512, userInfo: [NSUnderlyingErrorKey: posix])) == .diskFull)
    }

    @Test func otherErrorsAreNotUnavailability() {
        #expect(UnavailableStorage(DatabaseError(resultCode: .SQLITE_CONSTRAINT)) == nil)
        #expect(UnavailableStorage(PosixFile.Failure(operation: "write", path: "/data/x.part", code: EACCES)) == nil)
        #expect(UnavailableStorage(CocoaError(.fileNoSuchFile)) == nil)
        #expect(UnavailableStorage(TestFailure("anything else")) == nil)
    }

    /// A transaction whose connection the server ends (as a restart does: 57P01) means the database is away, not
    /// a server error. (`PostgresTransactionTests` runs this ten times: it once hung now and then.)
    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func aTransactionCutOffByTheServerMeansTheDatabaseIsAway() async throws {
        try await withTestApp { _, database in
            do {
                try await database.executor.writeAll([SQLStatement("SELECT pg_terminate_backend(pg_backend_pid())")])
                Issue.record("the server should have ended the connection")
            } catch {
                #expect(UnavailableStorage(error) == .databaseUnavailable, "\(String(reflecting: error))")
            }
        }
    }

    /// SQLite's page limit stands in for a full disk: the writer gets SQLITE_FULL, as on a full file system.
    @Test func writesOnAFullSQLiteDatabaseGet503WithRetryAfterAndReadsGoOn() async throws {
        guard TestDatabasePlace.postgresURL == nil else { return }  // SQLite's own limit
        try await withTestApp { client, database in
            let kept = try await client.createTodo("written before the disk filled")
            let pages = try #require(try await database.executor.readFirst("PRAGMA page_count", as: SQLInt.self)?.value)
            _ = try await database.executor.write(SQLStatement("PRAGMA max_page_count = \(raw: String(pages))"), as: SQLInt.self)
            let long = String(repeating: "가", count: 240)
            var refused: (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?)?
            for index in 0..<2_000 {
                let response = try await client.sendJSON(.post, "/api/v2/todos-json", #"{"title": "\#(long) \#(index)", "is_done": false}"#)
                if response.status != .ok { refused = response; break }
            }
            let answer = try #require(refused, "the page limit never refused a write")
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.headers[.retryAfter] == "60")
            #expect(answer.json?["message"]?.string?.contains("disk is full") == true)
            #expect(try await client.send(.get, "/api/v2/todos/\(kept)").status == .ok, "reads go on")

            _ = try await database.executor.write(SQLStatement("PRAGMA max_page_count = 1073741823"), as: SQLInt.self)
            #expect(try await client.createTodo("written once there was room again") > kept)
        }
    }
}

/// `/ready` answers in time even when the database does not: a load balancer waits for nobody.
struct ReadinessProbeTests {
    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "a pool every connection of which is busy"))
    func aPingThatGetsNoAnswerInTimeSaysUnreachableAndTheNextOneSaysReachable() async throws {
        try await withTestApp { _, database in
            // Every pooled connection busy for 3 s: a SELECT 1 waits for one, as it waited in PgBouncer's queue
            // while PostgreSQL was stopping.
            let busy = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<SproutDatabase.postgresConnections {
                        group.addTask { _ = try await database.executor.read(SQLStatement("SELECT pg_sleep(3)"), as: SQLTextValue.self) }
                    }
                    try await group.waitForAll()
                }
            }
            try await Task.sleep(for: .milliseconds(500))
            let asked = ContinuousClock.now
            #expect(await database.ping(within: .milliseconds(300)) == false)
            #expect(asked.duration(to: .now) < .seconds(2), "the probe waited for the database")
            try await busy.value
            #expect(await database.ping(within: .seconds(10)))
        }
    }
}
