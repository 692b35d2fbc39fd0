import ArgumentParser
import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import SproutServer

/// Swift's tasks run on NIO's event-loop threads instead of a separate pool (as Vapor's template does): a request's
/// handler then continues on the thread that read it, without a hop to another thread and back for every request
/// part and response. Measured with wrk -c64 on this 2-core machine, show one todo 8,200–8,900 → 10,000–12,100 req/s,
/// `/health` 8,470 → 14,390. The rule stays what it was on Swift's own pool: nothing blocks a
/// task for long — bcrypt and image decoding run on pools of their own (`WorkPools`), file work on NIO's thread
/// pool, long answers are encoded off the loops, and a plain SQLite read is a few microseconds on cached pages.
///
/// It takes effect only where the Swift runtime is a shared library (`swift run`, `swift build` without
/// `--static-swift-stdlib`): NIO finds the runtime's hook with `dlsym`, and a static build links the runtime with
/// `--exclude-libs ALL`, which hides it, so there the call returns false and Swift's own pool runs the tasks. The
/// release binary the benchmarks measure is the static one. Measured on 2026-11-28 (docs/benchmarks.md), the
/// static build was the faster on SQLite and the slower on PostgreSQL; on PostgreSQL each request's handler is now
/// bound to its loop instead (`LoopBoundResponder`).
@main
enum Entrypoint {
    static func main() async {
        // Files and directories this process creates (the database, its WAL, uploads) are its account's alone.
        umask(0o077)
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        await Sprout.main()
    }
}

struct Sprout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sprout: the servers of five classic iOS apps, in one Swift process.",
        version: SproutVersion.description,
        subcommands: [Serve.self, Migrate.self, Seed.self, AccountCommand.self, VendorCommand.self, BoardCommand.self, MailCommand.self, DoctorCommand.self, AuditCommand.self, ModerateCommand.self, ReportCommand.self,
                      BackupCommand.self, RestoreCommand.self],
        defaultSubcommand: Serve.self
    )
}

/// Options every command shares: where the data lives.
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Data directory for the SQLite database (env DATA_DIR, default ./data).")
    var dataDirectory: String?

    /// `overrides` are flags that stand for variables (`--log-level` for `LOG_LEVEL`): given, they replace the
    /// variable, so they are checked by the same rules and a broken variable cannot stop a flag that replaces it.
    func configuration(
        hostname: String? = nil, port: Int? = nil, overrides: [String: String] = [:], backupEvery: String? = nil
    ) throws -> SproutConfiguration {
        do {
            let environment = ProcessInfo.processInfo.environment.merging(overrides) { _, flag in flag }
            return try SproutConfiguration.fromEnvironment(
                environment, hostname: hostname, port: port, dataDirectory: dataDirectory, backupEvery: backupEvery
            )
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the server (migrates the database first).",
        discussion: """
            Settings come from environment variables (README.md, "Configuration"); these flags win over them. A value \
            that cannot be used stops the start, and so does a variable under one of Sprout's prefixes \
            (\(SproutConfiguration.guardedPrefixes.joined(separator: ", "))) that is no setting.
            """
    )

    @Option(name: .long, help: "Address to listen on (env HOST, default 127.0.0.1; 0.0.0.0 for every interface).")
    var hostname: String?

    @Option(name: .shortAndLong, help: "Port to listen on, 1…65535 (env PORT, default 8080).")
    var port: Int?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env LOG_LEVEL, default info).")
    var logLevel: String?

    @Option(name: .customLong("log-format"), help: "text or json, one object a line (env LOG_FORMAT, default text).")
    var logFormat: String?

    @Option(name: .customLong("shutdown-grace"), help: "Seconds that requests in flight may take to finish after SIGTERM (env SHUTDOWN_GRACE, default 10).")
    var shutdownGrace: String?

    @Option(name: .customLong("metrics-port"), help: "Serve Prometheus metrics at /metrics on this port (env METRICS_PORT; off by default).")
    var metricsPort: String?

    @Option(name: .customLong("metrics-hostname"), help: "Address of the metrics listener (env METRICS_HOSTNAME, default 127.0.0.1).")
    var metricsHostname: String?

    @Option(name: .customLong("backup-every"), help: "Make a backup every interval while serving: 90s, 30m, 6h, 1d (env BACKUP_EVERY; docs/operations.md).")
    var backupEvery: String?

    @OptionGroup var data: DataOptions

    func run() async throws {
        let flags = ["LOG_LEVEL": logLevel, "LOG_FORMAT": logFormat, "SHUTDOWN_GRACE": shutdownGrace, "METRICS_PORT": metricsPort, "METRICS_HOSTNAME": metricsHostname]
        let configuration = try data.configuration(
            hostname: hostname, port: port, overrides: flags.compactMapValues { $0 }, backupEvery: backupEvery
        )
        SproutLogging.bootstrap(format: configuration.server.logFormat)
        // Before the database is opened: a taken port is one line, and nothing is created or migrated for nothing.
        try await ListeningAddress.checkAvailable(hostname: configuration.server.hostname, port: configuration.server.port)
        if let metricsPort = configuration.server.metricsPort {
            try await ListeningAddress.checkAvailable(hostname: configuration.server.metricsHostname, port: metricsPort)
        }
        try await SecretRedaction.redactingErrors(of: configuration) {
            let logger = makeLogger(level: configuration.server.logLevel)
            let metrics = configuration.server.metricsPort == nil ? SproutMetrics.off : .prometheus()
            let database = try SproutDatabase(
                settings: configuration.data.database, migrations: SproutMigrations.all, logger: logger, metrics: metrics
            )
            let readiness = Readiness()
            let app = buildApplication(configuration, database: database, logger: logger, readiness: readiness, metrics: metrics) { port in
                await Self.greet(configuration, port: port, database: database)
            }
            SproutLogging.logStart(configuration, version: Sprout.configuration.version, logger: logger)
            // Returns after SIGINT/SIGTERM, once in-flight requests have finished and the database is closed.
            do {
                let backups = BackupSchedule.services(configuration, logger: logger, metrics: metrics)
                try await runUntilStopped(app, alongside: backups, readiness: readiness, grace: configuration.server.shutdownGrace, logger: logger)
            } catch is CancellationError {
                // SIGTERM while the database was still being waited for: a stop, not a failure.
                logger.warning("Sprout stopped before its database answered")
                return
            }
            logger.info("Sprout stopped")
        }
    }

    /// The address to click, and what to do first on an empty database; on standard output, where a person looks.
    private static func greet(_ configuration: SproutConfiguration, port: Int, database: SproutDatabase) async {
        var lines = ["Sprout is running: open \(ListeningAddress.browserURL(hostname: configuration.server.hostname, port: port)) in a browser (Ctrl-C stops it)."]
        // Only a PUBLIC_URL of the operator's own: the default is derived from host and port.
        if configuration.server.publicURL != ServerSettings.defaultPublicURL(hostname: configuration.server.hostname, port: configuration.server.port) {
            lines.append("Its public address (PUBLIC_URL) is \(configuration.server.publicURL)")
        }
        if (try? await FirstRun.databaseIsEmpty(database)) == true {
            lines.append(FirstRun.seedHint)
        }
        // Written straight to the descriptor: print's buffer would hold it back when output goes to a file or pipe.
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Bring the database schema up to date, then exit.")

    @OptionGroup var data: DataOptions

    func run() async throws {
        let configuration = try data.configuration()
        try await withDatabase(configuration) { database in
            try await database.prepare(configuration)
            print("Database is up to date (\(configuration.data.database.description)).")
        }
    }
}

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add demo content to the database.")

    @Option(name: .long, help: "How many demo todos to add to the shared list.")
    var todos: Int = 35

    @Option(name: .long, help: "How many demo accounts (demo1, demo2, …) write the community posts.")
    var accounts: Int = 3

    @Option(name: .long, help: "How many demo community posts to add.")
    var posts: Int = 12

    @Option(name: .long, help: "How many demo comments to spread over the new posts.")
    var comments: Int = 30

    @Option(name: .long, help: "How many demo market products (sold by demo1's vendor 새싹상회, with real images).")
    var products: Int = 12

    @Option(name: .customLong("board-posts"), help: "How many demo board posts (mostly in the free board; some notices, anonymous posts and replies).")
    var boardPosts: Int = 30

    @Option(name: .customLong("diary-entries"), help: "How many demo diary entries (one a day, in demo1's diary; no weather).")
    var diaryEntries: Int = 10

    @OptionGroup var data: DataOptions

    func validate() throws {
        guard todos >= 0, posts >= 0, comments >= 0, products >= 0, boardPosts >= 0, (0...10_000).contains(diaryEntries) else {
            throw ValidationError("--todos, --posts, --comments, --products and --board-posts must be 0 or more; --diary-entries from 0 to 10000")
        }
        guard (1...1000).contains(accounts) else { throw ValidationError("--accounts must be from 1 to 1000") }
    }

    func run() async throws {
        let configuration = try data.configuration()
        let (todos, accounts, posts, comments, products, boardPosts) = (todos, accounts, posts, comments, products, boardPosts)
        let diaryEntries = diaryEntries
        try await withDatabase(configuration) { database in
            try await database.prepare(configuration)
            try await TodoSeeder(database: database).seed(count: todos) { inserted in
                if inserted == todos || inserted % 5000 == 0 { print("Seeded \(inserted)/\(todos) todos") }
            }
            guard posts > 0 || products > 0 || boardPosts > 0 || diaryEntries > 0 else { return }
            let result = try await CommunitySeeder(database: database).seed(accounts: accounts, posts: posts, comments: comments) { print($0) }
            print("Demo accounts: \(result.usernames.joined(separator: ", "))")
            if let password = result.newPassword {
                print("New demo accounts sign in with the password \(password) (shown once).")
            }
            print("To give a demo account a password of your own: sprout account reset-password \(result.usernames[0]) --password NEW-PASSWORD")
            if boardPosts > 0 {
                try await BoardSeeder(database: database).seed(posts: boardPosts, authors: result.usernames) { seeded in
                    print("Seeded \(seeded)/\(boardPosts) board posts")
                }
            }
            if diaryEntries > 0 {
                try await DiarySeeder(database: database).seed(entries: diaryEntries, for: result.usernames[0])
                print("Seeded \(diaryEntries) diary entries in \(result.usernames[0])'s diary")
            }
            guard products > 0 else { return }
            let vendor = try await MarketSeeder(database: database, configuration: configuration).seed(products: products) { seeded in
                print("Seeded \(seeded)/\(products) products")
            }
            print("Demo products are sold by \(vendor) (account \(result.usernames[0]); `sprout vendor show \(result.usernames[0])` shows its secret).")
        }
    }
}

/// Opens the configured database for a one-off command and always closes it again.
@discardableResult
func withDatabase<Value: Sendable>(_ configuration: SproutConfiguration, _ body: @escaping @Sendable (SproutDatabase) async throws -> Value) async throws -> Value {
    try await SecretRedaction.redactingErrors(of: configuration) {
        let database = try SproutDatabase(
            settings: configuration.data.database,
            migrations: SproutMigrations.all,
            logger: makeLogger(level: configuration.server.logLevel)
        )
        return try await database.withOpen(body)
    }
}


extension SproutDatabase {
    /// What every command does before it touches data: the migrations, then the secrets-key check and the sealing
    /// of secrets an older Sprout kept plain.
    func prepare(_ configuration: SproutConfiguration) async throws {
        try await migrate()
        try await SecretsAtRest(database: self, configuration: configuration).prepare(logger: makeLogger(level: configuration.server.logLevel))
    }
}
