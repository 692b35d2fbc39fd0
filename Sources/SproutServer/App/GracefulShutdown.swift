import Hummingbird
import Logging
import ServiceLifecycle

/// Runs the application until SIGTERM or SIGINT, then shuts it down in order: `/ready` turns 503 at once, the
/// server stops accepting and lets the requests in flight finish (for at most `grace`; then they are cancelled),
/// and the database closes last — SQLite's writes are all committed by then, since every acknowledged write was
/// awaited by its request. Services `alongside` (scheduled backups) come before the application in the group, so
/// they are stopped after it has drained: a backup under way finishes within the same grace.
public func runUntilStopped(
    _ app: some ApplicationProtocol, alongside: [any Service] = [], readiness: Readiness, grace: Duration, logger: Logger
) async throws {
    var configuration = ServiceGroupConfiguration(
        services: alongside.map { .init(service: $0) } + [.init(service: DrainingApplication(app: app, readiness: readiness, logger: logger))],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger
    )
    configuration.maximumGracefulShutdownDuration = grace
    try await ServiceGroup(configuration: configuration).run()
}

/// The application, with readiness turned to draining the moment a graceful shutdown reaches it (the server's
/// own handler, further in, starts quiescing at the same moment).
struct DrainingApplication<App: Service>: Service {
    let app: App
    let readiness: Readiness
    let logger: Logger

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await app.run()
        } onGracefulShutdown: {
            readiness.startDraining()
            logger.info("draining: no new connections; requests in flight may finish")
        }
    }
}
