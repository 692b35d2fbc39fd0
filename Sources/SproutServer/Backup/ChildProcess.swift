import Foundation
import Synchronization

/// A child process started with `posix_spawn`: PostgreSQL's tools for backups and restores, and in the tests
/// `sprout` and `curl`. Not Foundation's `Process`: its `run()` on Linux (Swift 6.3.1) crashes now and then in a
/// process with many open files, from an over-read while it lists /proc/self/fd (swiftlang/swift-corelibs-foundation
/// PR 5472). A server holding a thousand connections is such a process; the suite crashed in a restore's `psql`.
/// This lists nothing: the child closes every descriptor above standard error as it starts.
final class ChildProcess: Sendable {
    let processIdentifier: Int32
    let arguments: [String]
    private let exit = Mutex<Int32?>(nil)

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `executable` with `arguments` and exactly `environment`; standard input is /dev/null, standard
    /// output and error go to the files given (made or truncated, readable by this user only), or to /dev/null.
    init(_ executable: String, _ arguments: [String], environment: [String: String], standardOutput: String?, standardError: String?) throws {
        self.arguments = arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, standardError ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Sockets and files this process opened without close-on-exec stay out of the child.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw StartFailure(description: "could not start \(executable): \(String(cString: strerror(result)))") }
        processIdentifier = pid
    }

    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not declare.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    var isRunning: Bool { reap() == nil }

    /// The exit status, or the signal's number when a signal ended it (as Foundation's `Process` answers).
    var terminationStatus: Int32 { reap() ?? -1 }

    /// Waits for the child to end and answers `terminationStatus`. Polls (from 5 ms up to every 100 ms) rather
    /// than blocking a thread in `waitpid` for as long as a dump takes. Cancelling the task sends SIGTERM and
    /// still waits for the child, so no tool outlives what started it.
    func exitStatus() async -> Int32 {
        var interval = Duration.milliseconds(5)
        var signalled = false
        while true {
            if let status = reap() { return status }
            if Task.isCancelled, !signalled {
                terminate()
                signalled = true
            }
            try? await Task.sleep(for: interval)
            interval = min(interval * 2, .milliseconds(100))
        }
    }

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
