import Foundation
import Testing

/// The `sprout` binary built beside the tests, run as a person runs it: arguments, an environment of its own
/// (always SQLite in a temporary data directory), standard output and error kept in files to read.
struct SproutProcess {
    let process: ChildProcess
    let output: URL
    let errors: URL

    /// `SPROUT_BIN`, or `sprout` in the build folder the tests run from.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["SPROUT_BIN"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("sprout")
    }

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        output = directory.appendingPathComponent("stdout")
        errors = directory.appendingPathComponent("stderr")
        guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
            throw TestFailure("no sprout binary at \(Self.binary.path): run `swift build` first")
        }
        process = try ChildProcess(
            Self.binary.path, arguments,
            // Nothing from the test run's own environment (DATABASE_URL of the PostgreSQL pass, PORT, …) leaks in.
            environment: ["PATH": "/usr/bin:/bin", "LOG_LEVEL": "warning", "WEATHER_PROVIDER": "off"].merging(environment) { $1 },
            standardOutput: output.path, standardError: errors.path
        )
    }

    var standardOutput: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
    var standardError: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// Runs to the end (at most `limit`) and answers its exit status.
    static func run(_ arguments: [String], environment: [String: String] = [:], limit: Duration = .seconds(60)) async throws -> (status: Int32, output: String, errors: String) {
        let running = try SproutProcess(arguments, environment: environment)
        let status = try await running.exit(within: limit)
        return (status, running.standardOutput, running.standardError)
    }

    /// Waits for the process to end by itself; kills it and fails after `limit`.
    func exit(within limit: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TestFailure("sprout \(process.arguments) still ran after \(limit)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return process.terminationStatus
    }

    /// Waits until standard output holds `text`; fails after `limit` or if the process ends first.
    func waitForOutput(containing text: String, within limit: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + limit
        while !standardOutput.contains(text) {
            guard process.isRunning else { throw TestFailure("sprout ended (\(process.terminationStatus)) before printing \(text): \(standardError)") }
            guard ContinuousClock.now < deadline else { throw TestFailure("no \(text) after \(limit): \(standardOutput)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until standard error holds `text` (a log line); fails after `limit` or if the process ends first.
    func waitForErrorOutput(containing text: String, within limit: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + limit
        while !standardError.contains(text) {
            guard process.isRunning else { throw TestFailure("sprout ended (\(process.terminationStatus)) before logging \(text): \(standardError)") }
            guard ContinuousClock.now < deadline else { throw TestFailure("no \(text) after \(limit): \(standardError)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// SIGTERM, as a service manager stops it, then waits for the end.
    func stop() async throws {
        process.terminate()
        _ = try await exit(within: .seconds(30))
    }

    static func temporaryDataDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sprout-cli-data-\(UUID().uuidString)").path
    }

    /// A port nobody listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
