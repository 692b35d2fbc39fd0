import Foundation
import Logging

/// Everything `buildApplication` needs, gathered from flags and the environment by the caller.
public struct SproutConfiguration: Sendable {
    public var hostname: String
    public var port: Int
    /// Holds the SQLite database (unless `databaseURL` points elsewhere) and, later, uploads and generated secrets.
    public var dataDirectory: String
    /// `postgres://…` switches from the embedded SQLite database to PostgreSQL.
    public var databaseURL: String?
    /// The address clients reach this server at, used wherever the server writes absolute URLs.
    public var publicURL: String
    /// Largest request body the JSON/form APIs accept; larger bodies get 413.
    public var maxRequestBodySize: Int
    public var logLevel: Logger.Level
    /// A connection that sends nothing for this long is closed (this covers headers that never finish).
    public var idleTimeout: Duration
    /// A request whose head and body together take longer than this to arrive gets 408 and its connection closed.
    public var requestTimeout: Duration
    /// `JWT_SECRET`: the key that signs account tokens. When unset, a key generated once is kept in the database.
    public var jwtSecret: String?
    /// bcrypt's cost for new password hashes (Strapi's 10). Tests lower it; the work doubles with each step.
    public var passwordHashCost: UInt8 = 10
    /// `MARKET_IMAGE_STORAGE`: where product images are kept — files under the data directory (default), or the
    /// database (so several servers on one PostgreSQL serve every image).
    public var marketImageStorage: MarketImageStorageKind = .files
    /// `MARKET_MAX_IMAGE_BYTES`: the largest product image accepted (the camp's 300 KiB by default).
    public var marketMaxImageBytes = 307_200
    /// `MARKET_UPLOADS_PER_HOUR`: products with pictures one vendor may register an hour (60), and twice that from
    /// one client address; 0 turns both limits off.
    public var marketUploadsPerHour = 60
    /// `BOARD_API_TOKEN`: a static Bearer token that reads every board (as the Mail Plug app's hard-coded one did);
    /// it writes nothing and owns nothing. Unset: only account tokens work.
    public var boardAPIToken: String?
    /// `DIARY_KEPT_VERSIONS`: the most earlier versions kept per diary entry, of every kind (50; 1…1000).
    public var diaryKeptVersions = SQLDiaryRepository.defaultKeptVersions
    /// `TRUSTED_PROXIES`: reverse proxies (addresses and CIDR networks) whose `X-Forwarded-For` and
    /// `X-Forwarded-Proto` name the client. Empty by default: those headers are ignored.
    public var trustedProxies = TrustedProxies.none
    /// `SIGNUPS_PER_ADDRESS_PER_HOUR`: sign-ups, and separately vendor creations, one client address may make per
    /// hour (20; 0 turns the limit off).
    public var signUpsPerAddressPerHour = 20
    /// `EMAIL_VISIBILITY`: `owner` (default) shows an account's email address whole only to the account itself,
    /// masked (`a***@example.com`) in every answer about its posts that others read; `everyone` shows it to all,
    /// as the original servers did.
    public var emailVisibility = EmailVisibility.owner
    /// `SECRETS_KEY`: the key (any text of 32 bytes or more) that seals vendor secrets and the generated JWT key in
    /// the database. Unset: `secrets.key` in the data directory, made on first start. Every process on one
    /// database needs the same key, so several `sprout serve` on one PostgreSQL set it (or share that file).
    public var secretsKey: String?
    /// `COMMUNITY_LIST_MAX_ROWS`: the most posts or comments one list answer holds (10,000; 100…1,000,000).
    /// `_limit=-1` ("all") and any larger `_limit` give this many; lists above a page are streamed.
    public var communityListMaxRows = 10_000
    /// Streamed (above one page) community lists in flight: per account and in the whole process.
    var communityLargeLists = LargeListSlots.Limits()
    /// `WEATHER_PROVIDER`, `OPENWEATHER_API_KEY`, `OPENWEATHER_BASE_URL`, `OPEN_METEO_BASE_URL`: where `/api/weather`
    /// gets current weather (Open-Meteo unless an OpenWeather key is set).
    public var weather = WeatherSettings()
    public init(
        hostname: String = "127.0.0.1",
        port: Int = 8080,
        dataDirectory: String = "./data",
        databaseURL: String? = nil,
        publicURL: String? = nil,
        maxRequestBodySize: Int = 1 << 20,
        logLevel: Logger.Level = .info,
        idleTimeout: Duration = .seconds(30),
        requestTimeout: Duration = .seconds(60),
        jwtSecret: String? = nil
    ) {
        self.hostname = hostname
        self.port = port
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL.flatMap { $0.isEmpty ? nil : $0 }
        self.publicURL = publicURL.flatMap { $0.isEmpty ? nil : $0 } ?? "http://\(hostname):\(port)"
        self.maxRequestBodySize = maxRequestBodySize
        self.logLevel = logLevel
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.jwtSecret = jwtSecret.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads `HOST`, `PORT`, `DATA_DIR`, `DATABASE_URL`, `PUBLIC_URL`, `MAX_BODY_SIZE`, `LOG_LEVEL`,
    /// `IDLE_TIMEOUT` and `REQUEST_TIMEOUT` (seconds), `JWT_SECRET`, `MARKET_IMAGE_STORAGE`, `MARKET_MAX_IMAGE_BYTES`, `MARKET_UPLOADS_PER_HOUR`, `BOARD_API_TOKEN`, `TRUSTED_PROXIES`, `DIARY_KEPT_VERSIONS`,
    /// `SIGNUPS_PER_ADDRESS_PER_HOUR`, `EMAIL_VISIBILITY`, `COMMUNITY_LIST_MAX_ROWS`, `SECRETS_KEY`,
    /// `WEATHER_PROVIDER`, `OPENWEATHER_API_KEY`, `OPENWEATHER_BASE_URL`, `OPEN_METEO_BASE_URL`;
    /// explicit arguments (from command-line flags) win over the environment.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        hostname: String? = nil,
        port: Int? = nil,
        dataDirectory: String? = nil
    ) throws -> SproutConfiguration {
        func value(_ key: String) -> String? {
            guard let raw = environment[key]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        let resolvedPort: Int
        if let port {
            guard Self.ports.contains(port) else {
                throw ConfigurationError("--port must be a number from 1 to 65535, got \(port)")
            }
            resolvedPort = port
        } else if let raw = value("PORT") {
            guard let parsed = Int(raw), Self.ports.contains(parsed) else {
                throw ConfigurationError("PORT must be a number from 1 to 65535, got '\(raw)'")
            }
            resolvedPort = parsed
        } else {
            resolvedPort = 8080
        }
        var logLevel = Logger.Level.info
        if let raw = value("LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: raw.lowercased()) else {
                throw ConfigurationError("LOG_LEVEL must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got '\(raw)'")
            }
            logLevel = parsed
        }
        var maxBody = 1 << 20
        if let raw = value("MAX_BODY_SIZE") {
            guard let parsed = Int(raw), parsed > 0 else {
                throw ConfigurationError("MAX_BODY_SIZE must be a positive number of bytes, got '\(raw)'")
            }
            maxBody = parsed
        }
        func seconds(_ key: String, default fallback: Duration) throws -> Duration {
            guard let raw = value(key) else { return fallback }
            guard let parsed = Double(raw), parsed > 0, parsed <= 86_400 else {
                throw ConfigurationError("\(key) must be a number of seconds above 0 and at most 86400, got '\(raw)'")
            }
            return .milliseconds(Int64(parsed * 1000))
        }
        let idleTimeout = try seconds("IDLE_TIMEOUT", default: .seconds(30))
        let requestTimeout = try seconds("REQUEST_TIMEOUT", default: .seconds(60))
        let databaseURL = value("DATABASE_URL")
        if let databaseURL {
            guard databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") else {
                throw ConfigurationError("DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite database)")
            }
            guard let components = URLComponents(string: databaseURL), let host = components.host, !host.isEmpty else {
                throw ConfigurationError(
                    "DATABASE_URL is not a valid URL (postgres://user:password@host:port/database, with special characters "
                        + "percent-encoded): \(SecretRedaction.redactingPassword(in: databaseURL))"
                )
            }
        }
        if let secret = environment["JWT_SECRET"], !secret.isEmpty, secret.utf8.count < 32 {
            throw ConfigurationError("JWT_SECRET must be at least 32 bytes long (HS256 keys shorter than the hash are weak); leave it unset to have one generated")
        }
        var configuration = SproutConfiguration(
            hostname: hostname ?? value("HOST") ?? "127.0.0.1",
            port: resolvedPort,
            dataDirectory: dataDirectory ?? value("DATA_DIR") ?? "./data",
            databaseURL: databaseURL,
            publicURL: value("PUBLIC_URL"),
            maxRequestBodySize: maxBody,
            logLevel: logLevel,
            idleTimeout: idleTimeout,
            requestTimeout: requestTimeout,
            jwtSecret: environment["JWT_SECRET"]
        )
        if let raw = value("MARKET_IMAGE_STORAGE") {
            guard let kind = MarketImageStorageKind(rawValue: raw.lowercased()) else {
                throw ConfigurationError("MARKET_IMAGE_STORAGE must be files or database, got '\(raw)'")
            }
            configuration.marketImageStorage = kind
        }
        if let raw = value("MARKET_MAX_IMAGE_BYTES") {
            guard let parsed = Int(raw), (1024...(20 << 20)).contains(parsed) else {
                throw ConfigurationError("MARKET_MAX_IMAGE_BYTES must be a number of bytes from 1024 to 20971520, got '\(raw)'")
            }
            configuration.marketMaxImageBytes = parsed
        }
        if let raw = value("MARKET_UPLOADS_PER_HOUR") {
            guard let parsed = Int(raw), (0...100_000).contains(parsed) else {
                throw ConfigurationError("MARKET_UPLOADS_PER_HOUR must be a number from 0 (no limit) to 100000, got '\(raw)'")
            }
            configuration.marketUploadsPerHour = parsed
        }
        configuration.boardAPIToken = value("BOARD_API_TOKEN")
        configuration.weather = try WeatherSettings.fromEnvironment(value)
        if let raw = value("DIARY_KEPT_VERSIONS") {
            guard let parsed = Int(raw), SQLDiaryRepository.keptVersionsRange.contains(parsed) else {
                throw ConfigurationError("DIARY_KEPT_VERSIONS must be a number from 1 to 1000, got '\(raw)'")
            }
            configuration.diaryKeptVersions = parsed
        }
        if let raw = value("SIGNUPS_PER_ADDRESS_PER_HOUR") {
            guard let parsed = Int(raw), (0...100_000).contains(parsed) else {
                throw ConfigurationError("SIGNUPS_PER_ADDRESS_PER_HOUR must be a number from 0 (no limit) to 100000, got '\(raw)'")
            }
            configuration.signUpsPerAddressPerHour = parsed
        }
        if let raw = value("EMAIL_VISIBILITY") {
            guard let parsed = EmailVisibility(rawValue: raw.lowercased()) else {
                throw ConfigurationError("EMAIL_VISIBILITY must be owner or everyone, got '\(raw)'")
            }
            configuration.emailVisibility = parsed
        }
        if let raw = environment["SECRETS_KEY"], !raw.isEmpty {
            guard raw.utf8.count >= 32 else {
                throw ConfigurationError("SECRETS_KEY must be at least 32 bytes long (e.g. `openssl rand -base64 32`); leave it unset to have a key file made in the data directory")
            }
            configuration.secretsKey = raw
        }
        if let raw = value("COMMUNITY_LIST_MAX_ROWS") {
            guard let parsed = Int(raw), Self.communityListMaxRowsRange.contains(parsed) else {
                throw ConfigurationError("COMMUNITY_LIST_MAX_ROWS must be a number from 100 to 1000000, got '\(raw)'")
            }
            configuration.communityListMaxRows = parsed
        }
        if let raw = value("TRUSTED_PROXIES") { configuration.trustedProxies = try TrustedProxies(parsing: raw) }
        return configuration
    }

    static let communityListMaxRowsRange = 100...1_000_000

    /// The ports a person may choose (0, "any free port", is for tests, which set it in code).
    public static let ports = 1...65535

    /// Where the data lives, chosen from `databaseURL` and `dataDirectory`.
    public var databaseSettings: DatabaseSettings {
        if let databaseURL {
            return .postgres(url: databaseURL)
        }
        return .sqlite(path: URL(fileURLWithPath: dataDirectory).appendingPathComponent("sprout.sqlite").path)
    }
}

/// A configuration value that cannot be used; the message says which and why.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
