import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Builds the whole Sprout application: database, migrations at start, every service's routes.
/// `sprout serve` and the tests both come through here.
public func buildApplication(_ configuration: SproutConfiguration, logger: Logger? = nil) async throws -> some ApplicationProtocol {
    let logger = logger ?? makeLogger(level: configuration.logLevel)
    let database = try SproutDatabase(settings: configuration.databaseSettings, migrations: SproutMigrations.all, logger: logger)
    return buildApplication(configuration, database: database, logger: logger)
}

/// Builds the application over a database the caller made (tests use this to reach the same database).
/// `onServerRunning` is told the port actually bound, which matters when `configuration.port` is 0.
public func buildApplication(
    _ configuration: SproutConfiguration,
    database: SproutDatabase,
    logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router(context: SproutRequestContext.self)
    router.add(middleware: RequestLoggingMiddleware())
    router.add(middleware: ErrorRenderingMiddleware())
    router.addRoutes(HealthController(database: database).endpoints, atPath: "/health")

    let todos = TodosController<SQLTodoRepository, SproutRequestContext>(
        repository: SQLTodoRepository(executor: database.executor),
        maxBodySize: configuration.maxRequestBodySize
    )
    router.addRoutes(todos.endpoints, atPath: "/api/v2")
    router.addRoutes(todos.endpoints, atPath: "/api/v1")
    router.addRoutes(WebController<SproutRequestContext>().endpoints)

    var app = Application(
        router: router,
        configuration: .init(address: .hostname(configuration.hostname, port: configuration.port), serverName: "Sprout"),
        services: [database],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    app.beforeServerStarts {
        try await database.migrate()
        logger.info("database ready", metadata: ["database": "\(database.settings.redacted)"])
    }
    return app
}

public func makeLogger(level: Logger.Level) -> Logger {
    var logger = Logger(label: "sprout")
    logger.logLevel = level
    return logger
}

extension DatabaseSettings {
    /// For logs: the location without a password.
    var redacted: String {
        switch self {
        case .sqlite(let path):
            return "sqlite:\(path)"
        case .postgres(let url, let schema):
            var components = URLComponents(string: url)
            if components?.password != nil { components?.password = "***" }
            return (components?.string ?? "postgres") + (schema.map { " (schema \($0))" } ?? "")
        }
    }
}

extension DatabaseSettings: CustomStringConvertible {
    public var description: String { redacted }
}
