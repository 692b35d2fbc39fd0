import Foundation
import Synchronization

/// A child process started with `posix_spawn`, for the tests that run `sprout` or `curl`. Foundation's `Process.run()`
/// on Linux crashes now and then in a process with many open files (an over-read while it lists /proc/self/fd:
/// swiftlang/swift-corelibs-foundation#5472) — which the test process, with its databases and sockets, is. It
/// crashed the whole suite once in a full run; this does not list anything.
final class ChildProcess: Sendable {
    let processIdentifier: Int32
    let arguments: [String]
    private let exit = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments` and exactly `environment`; standard input is /dev/null, standard
    /// output and error go to the files given (made or truncated).
    init(_ executable: String, _ arguments: [String], environment: [String: String], standardOutput: String, standardError: String) throws {
        self.arguments = arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw TestFailure("could not start \(executable): \(String(cString: strerror(result)))") }
        processIdentifier = pid
    }

    var isRunning: Bool { reap() == nil }

    /// The exit status, or the signal's number when a signal ended it (as Foundation's `Process` answers).
    var terminationStatus: Int32 { reap() ?? -1 }

    /// SIGTERM.
    func terminate() {
        if isRunning { kill(processIdentifier, SIGTERM) }
    }

    private func reap() -> Int32? {
        exit.withLock { known in
            if let known { return known }
            var status: Int32 = 0
            guard waitpid(processIdentifier, &status, WNOHANG) == processIdentifier else { return nil }
            let signal = status & 0x7F
            known = signal == 0 ? (status >> 8) & 0xFF : signal
            return known
        }
    }
}
