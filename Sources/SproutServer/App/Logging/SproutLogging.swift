import Foundation
import Logging

/// The process's log setup: the format chosen once at start, and the lines every start writes.
public enum SproutLogging {
    /// Chooses how every logger made afterwards writes. Once per process, before the first logger is made.
    public static func bootstrap(format: LogFormat) {
        switch format {
        case .text: LoggingSystem.bootstrap(StreamLogHandler.standardError)
        case .json: LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
    }

    /// One line each: version, database (never its password), data directory, listen address, metrics address.
    public static func logStart(_ configuration: SproutConfiguration, version: String, logger: Logger) {
        let server = configuration.server
        logger.info("version", metadata: ["version": "\(version)"])
        logger.info("database", metadata: ["database": "\(configuration.data.database.redacted)"])
        logger.info("data directory", metadata: ["data_dir": "\(URL(fileURLWithPath: configuration.data.directory).standardizedFileURL.path)"])
        logger.info("listening", metadata: ["address": "\(server.hostname):\(server.port)"])
        logger.info("metrics", metadata: ["address": "\(server.metricsPort.map { "\(server.metricsHostname):\($0)" } ?? "off")"])
    }
}
