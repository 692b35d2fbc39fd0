import Foundation
import PostgresNIO
import Testing
@testable import SproutServer

/// No statement goes to a PostgreSQL connection that has closed: postgres-nio never answers one (its query's promise
/// is dropped with the failed write), so a request, and the connection it leased, would wait for good. The time
/// limits turn such a wait into a failure that names the test; they are long because in the whole suite at once a
/// test application can take a minute to start.
@Suite(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
struct PostgresTransactionTests {
    @Test(.timeLimit(.minutes(10)))
    func aTransactionOnAConnectionThatHasClosedFailsAtOnce() async throws {
        try await withTestApp { _, database in
            let executor = try #require(database.executor as? PostgresExecutor)
            try await executor.client.withConnection { connection in
                try await connection.close().get()
                // The channel's handlers go after the close itself; a statement sent then was never answered.
                try await Task.sleep(for: .milliseconds(100))
                await #expect(throws: PostgresConnectionGone.self) {
                    try await PostgresTransaction.run(on: connection) { _ in 1 }
                }
            }
            // The pool replaces the closed connection: the database still answers.
            #expect(try await executor.readFirst("SELECT 1 AS value", as: SQLInt.self)?.value == 1)
        }
    }

    /// A statement that ends its own session (as a restart or an administrator does) fails with the server's
    /// error, and no ROLLBACK is sent after it: before, one went to the closed connection now and then (a race
    /// with the channel's teardown) and the transaction never returned, which hung the PostgreSQL suites in CI.
    /// Ten times, to meet the race.
    @Test(.timeLimit(.minutes(10)))
    func aTransactionWhoseSessionEndsFailsAndReturns() async throws {
        try await withTestApp { _, database in
            for _ in 0..<10 {
                do {
                    try await database.executor.writeAll([SQLStatement("SELECT pg_terminate_backend(pg_backend_pid())")])
                    Issue.record("the server should have ended the session")
                } catch {
                    #expect(PostgresTransaction.endedTheSession(error), "\(String(reflecting: error))")
                    #expect(UnavailableStorage(error) == .databaseUnavailable)
                }
            }
            do {
                let answer = try await database.executor.readFirst("SELECT 1 AS value", as: SQLInt.self)?.value
                #expect(answer == 1)
            } catch {
                Issue.record("\(String(reflecting: error))")
            }
        }
    }

    @Test func errorsOfTheStatementAloneLeaveTheSessionToRollBack() {
        #expect(!PostgresTransaction.endedTheSession(TestFailure("a check in the body")))
        #expect(PostgresTransaction.endedTheSession(PostgresConnectionGone()))
    }
}
