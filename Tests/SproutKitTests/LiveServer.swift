import Foundation
import Logging
import ServiceLifecycle
import SproutKit
@testable import SproutServer

/// A real Sprout server on a free loopback port with an empty temporary SQLite database, for the length of `body`.
/// `body` runs in the caller's isolation (main-actor tests can touch their stores directly).
/// `boardAPIToken` sets the server's static board token (`BOARD_API_TOKEN`).
func withLiveServer<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    boardAPIToken: String? = nil,
    _ body: (URL) async throws -> Value
) async throws -> Value {
    try await withLiveServerAndDatabase(boardAPIToken: boardAPIToken) { base, _ in try await body(base) }
}

/// `withLiveServer`, with the server's database as well: for what an administrator does (blocking an account).
func withLiveServerAndDatabase<Value: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    boardAPIToken: String? = nil,
    _ body: (URL, SproutDatabase) async throws -> Value
) async throws -> Value {
    var logger = Logger(label: "sproutkit-tests")
    logger.logLevel = .critical
    let place = try await LiveDatabasePlace.make(logger: logger)
    defer { place.removeDirectory() }
    let database = try SproutDatabase(settings: place.settings, migrations: SproutMigrations.all, logger: logger)
    // Uploads (the market's images) go to a directory of the test's own, not the working directory.
    let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("sproutkit-data-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dataDirectory) }
    var configuration = SproutConfiguration(server: ServerSettings(hostname: "127.0.0.1", port: 0), data: DataSettings(directory: dataDirectory.path))
    // bcrypt's lowest cost: the cost is not what these tests are about.
    configuration.accounts.passwordHashCost = 4
    configuration.board.apiToken = boardAPIToken
    // No real weather service from a test: weather answers 503, and the kit must save entries without it.
    configuration.diary.weather.provider = .off
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = buildApplication(
        configuration,
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
            await place.dropSchema(logger: logger)
            return value
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            try? await group.waitForAll()
            await place.dropSchema(logger: logger)
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

/// The live server's database: a temporary SQLite file, or, when `SPROUT_TEST_DATABASE_URL` names a PostgreSQL
/// database (as `scripts/test` sets it for its second run), a schema of its own, dropped afterwards.
struct LiveDatabasePlace: Sendable {
    let settings: DatabaseSettings
    let directory: URL?

    static func make(logger: Logger) async throws -> LiveDatabasePlace {
        if let url = ProcessInfo.processInfo.environment["SPROUT_TEST_DATABASE_URL"], !url.isEmpty {
            let schema = "kit_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            var settings = DatabaseSettings.postgres(url: url, schema: schema)
            var statements = [SQLStatement("CREATE SCHEMA \(raw: schema)")]
            if let poolerURL = ProcessInfo.processInfo.environment["SPROUT_TEST_POOLER_URL"], !poolerURL.isEmpty {
                // Through a transaction pooler the schema and timeout are the defaults of a role of the test's
                // own (the server's tests do the same: PooledTestRole).
                settings = .postgres(url: try Self.url(poolerURL, as: schema), schema: schema, pooler: TransactionPooler(directURL: try Self.url(url, as: schema)))
                statements = [
                    SQLStatement("CREATE ROLE \(raw: schema) LOGIN SUPERUSER"),
                    SQLStatement("ALTER ROLE \(raw: schema) SET search_path = \(raw: schema)"),
                    SQLStatement("ALTER ROLE \(raw: schema) SET statement_timeout = '10s'"),
                ] + statements
            }
            let creation = statements
            try await SproutDatabase(settings: .postgres(url: url), migrations: [], logger: logger).withOpen { admin in
                try await admin.executor.writeAll(creation)
            }
            return LiveDatabasePlace(settings: settings, directory: nil)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sproutkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return LiveDatabasePlace(settings: .sqlite(path: directory.appendingPathComponent("sprout.sqlite").path), directory: directory)
    }

    func removeDirectory() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func dropSchema(logger: Logger) async {
        guard case .postgres(_, let schema?, let pooler) = settings,
              let url = ProcessInfo.processInfo.environment["SPROUT_TEST_DATABASE_URL"] else { return }
        try? await SproutDatabase(settings: .postgres(url: url), migrations: [], logger: logger).withOpen { admin in
            try await admin.executor.writeAll([SQLStatement("DROP SCHEMA IF EXISTS \(raw: schema) CASCADE")])
            if pooler != nil { try await admin.executor.writeAll([SQLStatement("DROP ROLE IF EXISTS \(raw: schema)")]) }
        }
    }

    private static func url(_ url: String, as role: String) throws -> String {
        guard var components = URLComponents(string: url) else { throw URLError(.badURL) }
        components.user = role
        components.password = nil
        guard let string = components.string else { throw URLError(.badURL) }
        return string
    }
}
