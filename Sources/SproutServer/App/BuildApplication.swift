import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Builds the whole Sprout application: database, migrations at start, every service's routes.
/// `sprout serve` and the tests both come through here.
public func buildApplication(_ configuration: SproutConfiguration, logger: Logger? = nil) async throws -> some ApplicationProtocol {
    let logger = logger ?? makeLogger(level: configuration.server.logLevel)
    let database = try SproutDatabase(settings: configuration.data.database, migrations: SproutMigrations.all, logger: logger)
    return buildApplication(configuration, database: database, logger: logger)
}

/// Builds the application over a database the caller made (tests use this to reach the same database).
/// `onServerRunning` is told the port actually bound, which matters when `configuration.server.port` is 0.
public func buildApplication(
    _ configuration: SproutConfiguration,
    database: SproutDatabase,
    logger: Logger,
    clock: WallClock = .system,
    readiness: Readiness = Readiness(),
    metrics: SproutMetrics = .off,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    // One sealer, so the key file is read once: the routes and the start-up check share it.
    let sealer = SecretSealer(configuration)
    let mailer = Mailer(configuration.mail, logger: logger)
    let router = buildRouter(
        configuration, database: database, logger: logger, sealer: sealer, mailer: mailer, clock: clock, readiness: readiness,
        metrics: metrics
    )
    var services: [any Service] = [database]
    // After the database, so it stops first.
    services.append(EventLogPruner(log: EventLog(executor: database.executor), logger: logger))
    if let smtp = configuration.mail.smtp {
        // After the database, so it stops first: a mail being sent is finished and recorded.
        services.append(MailWorker(
            outbox: MailOutbox(executor: database.executor),
            client: SMTPClient(server: smtp, heloName: URLComponents(string: configuration.server.publicURL)?.host ?? "localhost"),
            sender: configuration.mail.sender(publicURL: configuration.server.publicURL), bell: mailer.wake, logger: logger, clock: clock,
            pollInterval: configuration.mail.pollInterval
        ))
    }
    if metrics.isOn, let port = configuration.server.metricsPort {
        // After the database in the list, so it stops before it: graceful shutdown runs from the last service back.
        services.append(MetricsListener(
            metrics: metrics, hostname: configuration.server.metricsHostname, port: port, logger: logger
        ))
    }
    let requestTimeout = TimeAmount(configuration.server.requestTimeout)
    // On PostgreSQL a request's handler runs on the loop that read it (`LoopBoundResponder`); on SQLite, where it was.
    let loopExecutors = database.executor.dialect == .postgres ? EventLoopTaskExecutors(MultiThreadedEventLoopGroup.singleton) : .none
    var app = Application(
        responder: ShallowStreamResponder(inner: LoopBoundResponder(inner: router.buildResponder(), executors: loopExecutors)),
        server: .http1(configuration: .init(
            additionalChannelHandlers: [RequestArrivalLimitsHandler(timeout: requestTimeout, logger: logger)],
            idleTimeout: TimeAmount(configuration.server.idleTimeout)
        )),
        configuration: .init(address: .hostname(configuration.server.hostname, port: configuration.server.port), serverName: "Sprout"),
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.server.port) },
        logger: logger
    )
    app.beforeServerStarts {
        // A database that is not there yet is waited for, and SIGTERM ends the wait (graceful shutdown cancels it).
        try await cancelWhenGracefulShutdown { try await database.migrateWhenReachable() }
        try await SecretsAtRest(sealer: sealer, executor: database.executor).prepare(logger: logger)
        logger.info("database ready", metadata: ["database": "\(database.settings.redacted)"])
        await sweepStagedUploads(dataDirectory: configuration.data.directory, logger: logger)
        readiness.markReady()
    }
    return app
}

/// Every service's routes behind the shared middleware (tests read its `routes` too).
func buildRouter(
    _ configuration: SproutConfiguration, database: SproutDatabase, logger: Logger, sealer: SecretSealer? = nil,
    mailer: Mailer? = nil, clock: WallClock = .system, readiness: Readiness = Readiness(), metrics: SproutMetrics = .off
) -> Router<SproutRequestContext> {
    // HEAD is answered for every GET route: the same headers, no body.
    let router = Router(context: SproutRequestContext.self, options: .autoGenerateHeadEndpoints)
    let sealer = sealer ?? SecretSealer(configuration)
    let accounts = AccountsParts(
        configuration, executor: database.executor, sealer: sealer, mailer: mailer ?? Mailer(configuration.mail, logger: logger),
        clock: clock, metrics: metrics
    )
    // Made first: failed web pages are answered with its HTML error page (APIs keep their JSON).
    let web = WebController<SproutRequestContext>(authenticator: accounts.authenticator)
    router.add(middleware: ClientOriginMiddleware(trustedProxies: configuration.server.trustedProxies))
    router.add(middleware: RequestLoggingMiddleware(metrics: metrics.requests))
    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: ErrorRenderingMiddleware(pages: web.renderer))
    router.addRoutes(HealthController(database: database, readiness: readiness).endpoints)
    router.addRoutes(OpenAPIController<SproutRequestContext>().endpoints)
    router.addRoutes(web.assetEndpoints)
    // Every route below reads its caller from the context, resolved here once per request.
    router.add(middleware: CallerMiddleware(authenticator: accounts.authenticator))

    let community = SQLCommunityRepository(executor: database.executor)
    router.add(middleware: CrossSiteRequestGuard(publicURL: configuration.server.publicURL))
    router.addRoutes(AccountsController<SproutRequestContext>(
        service: accounts.service, activity: community, maxBodySize: configuration.server.maxRequestBodySize
    ).endpoints)
    router.addRoutes(AccountRecoveryController<SproutRequestContext>(
        recovery: accounts.recovery, tokens: accounts.tokens, activity: community,
        confirmationRedirect: configuration.accounts.emailConfirmationRedirect, maxBodySize: configuration.server.maxRequestBodySize
    ).endpoints)
    router.addRoutes(AccountSessionsController<SproutRequestContext>(accounts: accounts.repository, sessions: accounts.sessions).endpoints)
    router.addRoutes(CommunityController<SproutRequestContext>(
        repository: community, emailVisibility: configuration.accounts.emailVisibility,
        maxBodySize: configuration.server.maxRequestBodySize, maximumListRows: configuration.community.listMaxRows,
        largeLists: LargeListSlots(configuration.community.largeLists), clock: clock
    ).endpoints)

    let todos = TodosController<SQLTodoRepository, SproutRequestContext>(
        repository: SQLTodoRepository(executor: database.executor),
        maxBodySize: configuration.server.maxRequestBodySize,
        clock: clock
    )
    router.addRoutes(todos.endpoints, atPath: "/api/v2")
    router.addRoutes(todos.endpoints, atPath: "/api/v1")
    router.addRoutes(WebSessionController<SproutRequestContext>(
        accounts: accounts, publicURL: configuration.server.publicURL, maxBodySize: configuration.server.maxRequestBodySize
    ).endpoints)
    let market = MarketParts(
        configuration, executor: database.executor, sealer: sealer, images: SystemImageProcessor(), clock: clock, metrics: metrics
    )
    router.addRoutes(MarketController<SproutRequestContext>(
        products: market.products, json: market.json, maxBodySize: configuration.server.maxRequestBodySize
    ).endpoints)
    router.addRoutes(VendorsController<SproutRequestContext>(
        vendors: market.vendors, addressLimit: accounts.addressLimit,
        maxBodySize: configuration.server.maxRequestBodySize, clock: clock
    ).endpoints)
    router.addRoutes(MarketImagesController<SproutRequestContext>(storage: market.storage).endpoints)
    router.addRoutes(AccountProfileController<SproutRequestContext>(
        service: accounts.service, activity: community, images: market.storage,
        maxBodySize: configuration.server.maxRequestBodySize, logger: logger,
        export: AccountExport(executor: database.executor, images: market.storage, clock: clock),
        ledger: RateLimitLedger(executor: database.executor)
    ).endpoints)
    router.addRoutes(BoardController<SproutRequestContext>(
        repository: SQLBoardRepository(executor: database.executor),
        administration: BoardAdministration(database: database, configuration: configuration),
        emailVisibility: configuration.accounts.emailVisibility,
        maxBodySize: configuration.server.maxRequestBodySize,
        clock: clock
    ).endpoints, atPath: "/api/v2")
    router.addRoutes(DiaryController<SproutRequestContext>(
        repository: SQLDiaryRepository(executor: database.executor, keptVersions: configuration.diary.keptVersions),
        clock: clock
    ).endpoints, atPath: "/api/diary")
    router.addRoutes(WeatherController<SproutRequestContext>(
        service: WeatherService(configuration, executor: database.executor, logger: logger),
        clock: clock
    ).endpoints, atPath: "/api")
    database.events.use(.standard(executor: database.executor, publicURL: configuration.server.publicURL))
    router.addRoutes(EventsController<SproutRequestContext>(
        hub: database.events, slots: EventStreamSlots(configuration.events), executor: database.executor,
        lifetime: configuration.events.streamLifetime
    ).endpoints)
    readiness.whenDraining { [events = database.events] in Task { await events.close() } }
    router.addRoutes(ReportsController<SproutRequestContext>(reports: Reports(executor: database.executor), clock: clock).endpoints, atPath: "/api/reports")
    router.addRoutes(web.endpoints)
    router.addRoutes(AccountPages<SproutRequestContext>(renderer: web.renderer).endpoints)
    router.addRoutes(CommunityPages<SproutRequestContext>(renderer: web.renderer).endpoints)
    router.addRoutes(MarketPages<SproutRequestContext>(renderer: web.renderer, maxImageBytes: configuration.market.maxImageBytes).endpoints)
    router.addRoutes(BoardPages<SproutRequestContext>(renderer: web.renderer).endpoints)
    router.addRoutes(DiaryPages<SproutRequestContext>(renderer: web.renderer).endpoints)
    router.addRoutes(adminConsole(configuration, database: database, accounts: accounts, renderer: web.renderer, clock: clock).endpoints)
    router.addRoutes(AdminOperationsPages<SproutRequestContext>(
        renderer: web.renderer,
        backups: BackupJobs(database: database, configuration: configuration, logger: logger),
        boards: BoardAdministration(database: database, configuration: configuration),
        vendors: VendorAdministration(database: database, configuration: configuration),
        sessions: accounts.sessions, cookie: SessionCookie(publicURL: configuration.server.publicURL),
        write: ConsoleWrite(
            renderer: web.renderer, writeGuard: ConsoleWriteGuard(ledger: RateLimitLedger(executor: database.executor), clock: clock),
            maxBodySize: configuration.server.maxRequestBodySize
        )
    ).endpoints)
    router.addRoutes(moderationConsole(configuration, database: database, accounts: accounts, renderer: web.renderer, clock: clock).endpoints)
    return router
}

/// The console (`/admin…`): its pages and the account actions, over the same administration code as `sprout account`.
private func adminConsole(
    _ configuration: SproutConfiguration, database: SproutDatabase, accounts: AccountsParts, renderer: WebPageRenderer, clock: WallClock
) -> AdminPages<SproutRequestContext> {
    let administration = AccountAdministration(database: database, configuration: configuration)
    return AdminPages(
        renderer: renderer, administration: administration,
        audit: AuditTrail(database: database, configuration: configuration),
        statistics: ConsoleStatistics(
            executor: database.executor, database: database.settings, dataDirectory: configuration.data.directory,
            backupDirectory: configuration.backup.directory(dataDirectory: configuration.data.directory)
        ),
        sessions: accounts.sessions,
        actions: AdminAccountActions(
            renderer: renderer, administration: administration, service: accounts.service,
            writeGuard: ConsoleWriteGuard(ledger: RateLimitLedger(executor: database.executor), clock: clock),
            cookie: SessionCookie(publicURL: configuration.server.publicURL), maxBodySize: configuration.server.maxRequestBodySize
        ),
        clock: clock
    )
}

/// The console's moderation and reports pages (moderators and admins), over the same code as `sprout moderate`.
private func moderationConsole(
    _ configuration: SproutConfiguration, database: SproutDatabase, accounts: AccountsParts, renderer: WebPageRenderer, clock: WallClock
) -> AdminModerationPages<SproutRequestContext> {
    AdminModerationPages(
        renderer: renderer, queue: ModerationQueue(database: database), reports: Reports(database: database),
        sessions: accounts.sessions,
        actions: AdminModerationActions(
            renderer: renderer, moderation: Moderation(database: database, configuration: configuration), service: accounts.service,
            writeGuard: ConsoleWriteGuard(ledger: RateLimitLedger(executor: database.executor), clock: clock),
            cookie: SessionCookie(publicURL: configuration.server.publicURL), maxBodySize: configuration.server.maxRequestBodySize
        )
    )
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
        case .postgres(let url, let schema, let pooler):
            return SecretRedaction.redactingPassword(in: url) + (schema.map { " (schema \($0))" } ?? "")
                + (pooler.map { " through a transaction pooler; direct \(SecretRedaction.redactingPassword(in: $0.directURL))" } ?? "")
        }
    }
}

extension DatabaseSettings: CustomStringConvertible {
    public var description: String { redacted }
}

/// Uploads staged by a process that crashed or was killed are removed at start; only old ones, since another
/// process on this data directory may be uploading now (`FileImageStorage.stagedFileLifetime`). Whatever the
/// storage in use: one switched from files to the database may have left some too. A failure is logged, not fatal.
func sweepStagedUploads(dataDirectory: String, logger: Logger) async {
    let storage = FileImageStorage(dataDirectory: dataDirectory)
    do {
        guard let removed = try await storage.removeStaleStagedFiles() else { return }
        logger.info("removed \(removed) staged upload files left for more than an hour", metadata: ["directory": "\(storage.staging.path)"])
    } catch {
        logger.warning("could not sweep staged uploads", metadata: ["directory": "\(storage.staging.path)", "error": "\(error)"])
    }
}
