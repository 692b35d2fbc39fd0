import Foundation
import Logging
import Testing
@testable import SproutServer

/// Pools are run until the caller stops them, and a pool that does not stop (a keep-alive its closed connection never
/// answered) is left behind after the grace instead of holding its caller for good.
struct PostgresPoolsRunTests {
    /// Not after the grace: an hour, against a bound of two minutes that only a machine starved by other work
    /// comes near (the whole suite beside two database seeds once took 31 s from the start to here).
    @Test(.timeLimit(.minutes(5))) func runsThatEndWhenCancelledEndItAtOnce() async throws {
        let running = Task {
            await PostgresPoolsRun.run([{ try? await Task.sleep(for: .seconds(3600)) }], grace: .seconds(3600), logger: Logger(label: "test"))
        }
        try await Task.sleep(for: .milliseconds(50))
        let cancelled = ContinuousClock.now
        running.cancel()
        await running.value
        #expect(ContinuousClock.now - cancelled < .seconds(120))
    }

    @Test(.timeLimit(.minutes(1))) func aRunThatDoesNotEndIsLeftBehindAfterTheGrace() async throws {
        let started = ContinuousClock.now
        let stuck = NeverEnding()
        let running = Task {
            await PostgresPoolsRun.run([{ await stuck.wait() }], grace: .milliseconds(200), logger: Logger(label: "test"))
        }
        try await Task.sleep(for: .milliseconds(50))
        running.cancel()
        await running.value  // before, this waited as long as the stuck run
        #expect(ContinuousClock.now - started < .seconds(30))
        stuck.release()
    }

    /// `sprout seed` on PostgreSQL printed postgres-nio's "`PostgresClient.run()` hasn't been called yet" every
    /// time: the command's first query was leased before its pools' run had begun.
    @Test(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
    func aCommandsFirstQueryWaitsForItsPoolsToRun() async throws {
        let url = try #require(TestDatabasePlace.postgresURL)
        let recorder = LogRecorder()
        for _ in 0..<20 {
            let database = try SproutDatabase(settings: .postgres(url: url), migrations: [], logger: recorder.logger(level: .warning))
            let answer = try await database.withOpen { database in
                try await database.executor.readFirst("SELECT 1 AS one", as: SQLInt.self)?.value
            }
            #expect(answer == 1)
        }
        #expect(recorder.records.filter { $0.message.contains("run()") }.map(\.message) == [])
    }

    @Test func aCancelBeforeTheRunsStartStillEndsIt() async {
        let running = Task {
            await PostgresPoolsRun.run([{ try? await Task.sleep(for: .seconds(3600)) }], grace: .seconds(60), logger: Logger(label: "test"))
        }
        running.cancel()
        await running.value
    }
}

/// A wait that ignores cancellation, as the pool's did, until the test releases it.
private final class NeverEnding: Sendable {
    private let released = AsyncStream<Void>.makeStream()

    func wait() async {
        // An AsyncStream's iteration ends on cancellation; this one is iterated in a task nobody cancels.
        let stream = released.stream
        await Task.detached { for await _ in stream {} }.value
    }

    func release() {
        released.continuation.finish()
    }
}
