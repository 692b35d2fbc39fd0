import Logging

/// How the HTTP server listens and what it accepts.
///
/// | variable | default |
/// |---|---|
/// | `HOST`, `PORT` (flags `--hostname`, `--port` win) | `127.0.0.1`, `8080` (1…65535) |
/// | `PUBLIC_URL` (an http(s) URL) | `http://HOST:PORT` |
/// | `MAX_BODY_SIZE` | `1048576` bytes |
/// | `LOG_LEVEL` (flag `--log-level`) | `info` |
/// | `LOG_FORMAT` (flag `--log-format`) | `text`; `json` writes one JSON object a line |
/// | `IDLE_TIMEOUT`, `REQUEST_TIMEOUT` | `30`, `60` seconds (above 0, at most 86400) |
/// | `SHUTDOWN_GRACE` (flag `--shutdown-grace`) | `10` seconds for requests in flight to finish after SIGTERM |
/// | `TRUSTED_PROXIES` | none |
/// | `METRICS_PORT`, `METRICS_HOSTNAME` (flags `--metrics-port`, `--metrics-hostname`) | off; `127.0.0.1` |
public struct ServerSettings: Sendable {
    public var hostname: String
    /// 0 ("any free port") only from code: tests set it.
    public var port: Int
    /// The address clients reach this server at, used wherever the server writes absolute URLs.
    public var publicURL: String
    /// Largest request body the JSON/form APIs accept; larger bodies get 413.
    public var maxRequestBodySize = 1 << 20
    public var logLevel = Logger.Level.info
    public var logFormat = LogFormat.text
    /// A connection that sends nothing for this long is closed (this covers headers that never finish).
    public var idleTimeout: Duration = .seconds(30)
    /// A request whose head and body together take longer than this to arrive gets 408 and its connection closed.
    public var requestTimeout: Duration = .seconds(60)
    /// Reverse proxies (addresses and CIDR networks) whose `X-Forwarded-For` and `X-Forwarded-Proto` name the
    /// client. None by default: those headers are ignored.
    public var trustedProxies = TrustedProxies.none
    /// After SIGTERM or SIGINT, how long requests in flight may take to finish before they are cancelled.
    public var shutdownGrace: Duration = .seconds(10)
    /// Prometheus's `/metrics` listens on this port (never the public one); nil: no metrics listener.
    public var metricsPort: Int?
    /// The metrics listener's address: loopback unless the operator says otherwise.
    public var metricsHostname = "127.0.0.1"

    static let variables = [
        "HOST", "PORT", "PUBLIC_URL", "MAX_BODY_SIZE", "LOG_LEVEL", "LOG_FORMAT", "IDLE_TIMEOUT", "REQUEST_TIMEOUT",
        "TRUSTED_PROXIES", "SHUTDOWN_GRACE", "METRICS_PORT", "METRICS_HOSTNAME",
    ]

    /// The ports a person may choose (0, "any free port", is for tests, which set it in code).
    public static let ports = 1...65535

    /// `publicURL` nil or empty: derived from `hostname` and `port`.
    public init(hostname: String = "127.0.0.1", port: Int = 8080, publicURL: String? = nil) {
        self.hostname = hostname
        self.port = port
        self.publicURL = publicURL.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultPublicURL(hostname: hostname, port: port)
    }

    /// What `PUBLIC_URL` is when unset.
    public static func defaultPublicURL(hostname: String, port: Int) -> String {
        "http://\(hostname):\(port)"
    }

    /// The settings `reader` describes; `hostname` and `port` (from flags) win over `HOST` and `PORT`.
    static func read(from reader: EnvironmentReader, hostname: String? = nil, port: Int? = nil) throws -> ServerSettings {
        // A flag given, the variable is not read at all: a broken PORT cannot stop `--port 9000`.
        let resolvedPort: Int
        if let port {
            guard ports.contains(port) else { throw ConfigurationError("--port must be a number from 1 to 65535, got \(port)") }
            resolvedPort = port
        } else {
            resolvedPort = try reader.int("PORT", in: ports, default: 8080)
        }
        let publicURL = try reader.httpURL("PUBLIC_URL")
        var settings = ServerSettings(hostname: hostname ?? reader.string("HOST") ?? "127.0.0.1", port: resolvedPort, publicURL: publicURL)
        settings.maxRequestBodySize = try reader.int("MAX_BODY_SIZE", in: 1...Int.max, default: settings.maxRequestBodySize, unit: "bytes")
        settings.logLevel = try reader.choice("LOG_LEVEL", of: Logger.Level.self) ?? settings.logLevel
        settings.logFormat = try reader.choice("LOG_FORMAT", of: LogFormat.self) ?? settings.logFormat
        settings.idleTimeout = try reader.seconds("IDLE_TIMEOUT", default: settings.idleTimeout)
        settings.requestTimeout = try reader.seconds("REQUEST_TIMEOUT", default: settings.requestTimeout)
        if let list = reader.string("TRUSTED_PROXIES") { settings.trustedProxies = try TrustedProxies(parsing: list) }
        settings.shutdownGrace = try reader.seconds("SHUTDOWN_GRACE", default: settings.shutdownGrace, atMost: 3600)
        if reader.string("METRICS_PORT") != nil {
            settings.metricsPort = try reader.int("METRICS_PORT", in: ports, default: 0)
            guard settings.metricsPort != resolvedPort else {
                throw ConfigurationError("METRICS_PORT must differ from the public port \(resolvedPort): metrics are never served there")
            }
        }
        settings.metricsHostname = reader.string("METRICS_HOSTNAME") ?? settings.metricsHostname
        return settings
    }
}

/// How log lines are written: for a person (`text`) or for a log collector (`json`, one object a line).
public enum LogFormat: String, CaseIterable, Sendable {
    case text, json
}
