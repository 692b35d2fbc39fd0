import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import ServiceLifecycle
import Testing
@testable import SproutServer

/// `/health` says the process lives; `/ready` says it should be sent requests.
@Suite struct ReadinessTests {
    @Test func healthSaysOnlyThatTheProcessLives() async throws {
        try await withTestApp { client, _ in
            let response = try await client.send(.get, "/health")
            #expect(response.status == .ok)
            #expect(response.json == .object(["status": .string("ok")]))
        }
    }

    @Test func readyIs200OnceMigratedAnd503FromTheMomentDrainingStarts() async throws {
        let readiness = Readiness()
        try await withTestApp(readiness: readiness) { client, _ in
            let ready = try await client.send(.get, "/ready")
            #expect(ready.status == .ok)
            #expect(ready.json == .object(["status": .string("ready"), "database": .string("ok")]))
            readiness.startDraining()
            let draining = try await client.send(.get, "/ready")
            #expect(draining.status == .serviceUnavailable)
            #expect(draining.json?["status"]?.string == "draining")
            // The process still lives: a supervisor must not kill it while it drains.
            #expect(try await client.send(.get, "/health").status == .ok)
        }
    }

    @Test func readyIs503UntilTheDatabaseIsMigrated() async throws {
        // Not migrated, not even opened by a server: the state before `beforeServerStarts` has run.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-ready-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SproutDatabase(
            settings: .sqlite(path: directory.appendingPathComponent("sprout.sqlite").path), migrations: SproutMigrations.all, logger: testLogger()
        )
        let router = buildRouter(SproutConfiguration(), database: database, logger: testLogger(), readiness: Readiness())
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/ready", method: .get)
            #expect(response.status == .serviceUnavailable)
            #expect(String(buffer: response.body).contains(#""status":"starting""#))
        }
        await database.shutdown()
    }

    /// The wiring `sprout serve` uses: a graceful shutdown (SIGTERM's) reaching the application turns readiness to
    /// draining at once, before the server has finished its requests.
    @Test func aGracefulShutdownTurnsReadinessToDraining() async throws {
        let readiness = Readiness()
        readiness.markReady()
        let started = DoneFlag()
        let group = ServiceGroup(configuration: .init(
            services: [DrainingApplication(app: HoldingService(started: started), readiness: readiness, logger: testLogger())],
            logger: testLogger()
        ))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            while !started.isSet { try await Task.sleep(for: .milliseconds(10)) }
            #expect(readiness.current == .ready)
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(readiness.current == .draining)
    }
}

/// Stands in for the application: runs until a graceful shutdown reaches it.
private struct HoldingService: Service {
    let started: DoneFlag

    func run() async throws {
        started.set()
        try? await gracefulShutdown()
    }
}
