import Foundation
import Logging
import ServiceLifecycle
import SproutKit
@testable import SproutServer

/// A real Sprout server on a free loopback port with an empty temporary SQLite database, for the length of `body`.
/// `body` runs in the caller's isolation (main-actor tests can touch their stores directly).
func withLiveServer<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> Value
) async throws -> Value {
    try await withLiveServerAndDatabase { base, _ in try await body(base) }
}

/// `withLiveServer`, with the server's database as well: for what an administrator does (blocking an account).
func withLiveServerAndDatabase<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL, SproutDatabase) async throws -> Value
) async throws -> Value {
    var logger = Logger(label: "sproutkit-tests")
    logger.logLevel = .critical
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sproutkit-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let database = try SproutDatabase(
        settings: .sqlite(path: directory.appendingPathComponent("sprout.sqlite").path),
        migrations: SproutMigrations.all,
        logger: logger
    )
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = buildApplication(
        SproutConfiguration(hostname: "127.0.0.1", port: 0),
        database: database,
        logger: logger,
        onServerRunning: { port in portContinuation.yield(port) }
    )
    // Stopped by graceful shutdown, never by cancelling its task: a connection accepted while the serving task is
    // cancelled is dropped unserved, and NIO traps on that ("Deinited NIOAsyncWriter without calling finish()").
    let serviceGroup = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            defer { portContinuation.finish() }
            try await serviceGroup.run()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            try await group.waitForAll()
            throw LiveServerError.didNotStart
        }
        do {
            let value = try await body(URL(string: "http://127.0.0.1:\(port)")!, database)
            await serviceGroup.triggerGracefulShutdown()
            try await group.waitForAll()
            return value
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            try? await group.waitForAll()
            throw error
        }
    }
}

enum LiveServerError: Error {
    case didNotStart
}

/// A temporary file path for a favourites database, removed by the caller.
func temporaryDatabasePath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("favourites-\(UUID().uuidString)/Favorite.sqlite").path
}
