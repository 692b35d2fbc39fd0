import Foundation
import Logging
import SproutKit
@testable import SproutServer

/// A real Sprout server on a free loopback port with an empty temporary SQLite database, for the length of `body`.
/// `body` runs in the caller's isolation (main-actor tests can touch their stores directly).
func withLiveServer<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (URL) async throws -> Value
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
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await app.runService(gracefulShutdownSignals: []) }
        guard let port = await ports.first(where: { _ in true }) else { throw LiveServerError.didNotStart }
        do {
            let value = try await body(URL(string: "http://127.0.0.1:\(port)")!)
            group.cancelAll()
            return value
        } catch {
            group.cancelAll()
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
