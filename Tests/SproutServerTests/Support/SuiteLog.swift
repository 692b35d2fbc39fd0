import Foundation
import Logging
import Synchronization
@testable import SproutServer

/// The whole suite's log and the secrets it used, for `scripts/test` to check that no secret was ever logged.
/// With `SPROUT_TEST_LOG_FILE` set, every test application's logger (`testLogger`) writes JSON lines there at
/// `SPROUT_TEST_LOG_LEVEL` (trace unless set); with `SPROUT_TEST_SECRETS_FILE` set, the helpers that sign up, log in,
/// make vendors or configure keys write each secret there, one a line. `scripts/check-log-secrets` then greps.
enum SuiteLog {
    static let logFile = ProcessInfo.processInfo.environment["SPROUT_TEST_LOG_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    static let secretsFile = ProcessInfo.processInfo.environment["SPROUT_TEST_SECRETS_FILE"].flatMap { $0.isEmpty ? nil : $0 }

    private static let logWriter = logFile.map(AppendingFile.init)
    private static let secretsWriter = secretsFile.map(AppendingFile.init)
    private static let noted = Mutex<Set<String>>([])

    /// A handler writing to the suite's log file, or nil when there is none.
    static func handler(label: String) -> JSONLogHandler? {
        logWriter.map { writer in JSONLogHandler(label: label, output: LogOutput { writer.append($0) }) }
    }

    /// Remembers a secret the suite used (each once).
    static func noteSecret(_ secret: String?) {
        guard let secretsWriter, let secret, !secret.isEmpty else { return }
        guard noted.withLock({ $0.insert(secret).inserted }) else { return }
        secretsWriter.append(secret + "\n")
    }
}

/// A file opened for appending once; lines from many threads each go in one `write`.
private final class AppendingFile: Sendable {
    private let descriptor: Int32

    init(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    }

    func append(_ text: String) {
        guard descriptor >= 0 else { return }
        var text = text
        text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
    }
}
