import Foundation
import Logging

/// Keeps every log record, so a test can check what the server said and at which level.
final class LogRecorder: @unchecked Sendable {
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    private let lock = NSLock()
    private var stored: [Record] = []

    var records: [Record] { lock.withLock { stored } }

    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "recorded") { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    fileprivate func append(_ record: Record) { lock.withLock { stored.append(record) } }

    /// Waits (briefly) for a record that satisfies `condition`.
    func waitFor(_ condition: (Record) -> Bool) async throws -> Record? {
        for _ in 0..<500 {
            if let record = records.first(where: condition) { return record }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.append(Record(level: event.level, message: event.message.description, metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
        }
    }
}
