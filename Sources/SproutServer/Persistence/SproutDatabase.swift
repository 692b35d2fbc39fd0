import FluentKit
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Owns FluentKit's `Databases` without Vapor: opens the configured database, runs migrations and shuts the
/// connection pools down when the application stops (it is one of the application's services).
public final class SproutDatabase: Service, Sendable {
    public let settings: DatabaseSettings
    let databases: Databases
    let migrations: Migrations
    let logger: Logger
    let eventLoopGroup: any EventLoopGroup
    /// SQLite gets a single connection (one event loop, one pool): SQLite serialises writers anyway, and one
    /// connection per process means no lock contention inside the process and lets the PRAGMAs set at start hold.
    private let sqliteEventLoop: (any EventLoop)?

    public init(
        settings: DatabaseSettings,
        migrations: [any Migration],
        logger: Logger,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        threadPool: NIOThreadPool = .singleton
    ) throws {
        self.settings = settings
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
        self.databases = Databases(threadPool: threadPool, on: eventLoopGroup)
        self.migrations = Migrations()
        self.migrations.add(migrations)
        switch settings {
        case .sqlite(let path):
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            databases.use(.sqlite(.file(path), sqlLogLevel: .trace), as: .sqlite)
            sqliteEventLoop = eventLoopGroup.next()
        case .postgres(let url, let schema):
            var configuration = try SQLPostgresConfiguration(url: url)
            if let schema { configuration.searchPath = [schema] }
            databases.use(
                .postgres(configuration: configuration, maxConnectionsPerEventLoop: 8, sqlLogLevel: .trace),
                as: .psql
            )
            sqliteEventLoop = nil
        }
    }

    /// A database handle whose queries log with the given (usually the request's) logger.
    public func database(logger: Logger? = nil) -> any Database {
        let eventLoop = sqliteEventLoop ?? eventLoopGroup.any()
        guard let database = databases.database(logger: logger ?? self.logger, on: eventLoop) else {
            preconditionFailure("database requested after shutdown")
        }
        return database
    }

    /// Brings the schema up to date. Safe to run from several processes at once on PostgreSQL (an advisory
    /// lock serialises them) and next to a running server on SQLite (WAL mode and a busy timeout).
    public func migrate() async throws {
        let database = self.database()
        switch settings {
        case .sqlite:
            try await applySQLitePragmas(on: database)
            try await runMigrations(on: database)
        case .postgres:
            try await database.withConnection { connection in
                let sql = connection as! any SQLDatabase
                try await sql.raw("SELECT pg_advisory_lock(\(literal: Self.migrationLockKey))").run()
                do {
                    try await self.runMigrations(on: connection)
                } catch {
                    try? await sql.raw("SELECT pg_advisory_unlock(\(literal: Self.migrationLockKey))").run()
                    throw error
                }
                try await sql.raw("SELECT pg_advisory_unlock(\(literal: Self.migrationLockKey))").run()
            }
        }
    }

    /// Answers whether the database can be reached, for `/health`.
    public func ping() async -> Bool {
        do {
            try await (database() as! any SQLDatabase).raw("SELECT 1").run()
            return true
        } catch {
            logger.warning("database ping failed", metadata: ["error": "\(String(reflecting: error))"])
            return false
        }
    }

    public func run() async throws {
        // Stay up for as long as the application runs, then close the pools after the server has drained.
        try? await gracefulShutdown()
        await shutdown()
    }

    public func shutdown() async {
        await databases.shutdownAsync()
    }

    private static let migrationLockKey: Int64 = 0x5370_726F_7574 // "Sprout"

    private func runMigrations(on database: any Database) async throws {
        let migrator = Migrator(
            databaseFactory: { _ in database },
            migrations: migrations,
            on: database.eventLoop,
            migrationLogLevel: .debug
        )
        try await migrator.setupIfNeeded().get()
        try await migrator.prepareBatch().get()
    }

    private func applySQLitePragmas(on database: any Database) async throws {
        let sql = database as! any SQLDatabase
        // WAL lets readers (a second process, `sprout migrate`) work beside a writer; it persists in the file.
        try await sql.raw("PRAGMA journal_mode = WAL").run()
        // The driver's own busy handler retries forever without sleeping; a timeout is kinder and finite.
        try await sql.raw("PRAGMA busy_timeout = 5000").run()
        try await sql.raw("PRAGMA synchronous = NORMAL").run()
        try await sql.raw("PRAGMA foreign_keys = ON").run()
    }
}
