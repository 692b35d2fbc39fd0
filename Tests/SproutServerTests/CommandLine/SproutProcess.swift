import Foundation
import Synchronization
import Testing
@testable import SproutServer

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
    /// A port that is free now and that nothing else in this process has been given. Not one the kernel picks
    /// (port 0): those come from the ephemeral range (32768–60999 here), from which every outgoing connection
    /// also takes its local port, and the suite holds hundreds to PostgreSQL; one of them took such a port between
    /// this check and the server's bind ("port … is in use", in CI). Below that range only servers bind.
    static func freePort() throws -> Int {
        for _ in 0..<Self.portRange.count {
            let port = Self.nextPort.withLock { next in
                defer { next = next + 1 == Self.portRange.upperBound ? Self.portRange.lowerBound : next + 1 }
                return next
            }
            if canBind(port) { return port }
        }
        throw TestFailure("no free port in \(Self.portRange)")
    }

    private static let portRange = 20_000..<32_768
    private static let nextPort = Mutex(Int.random(in: portRange))

    private static func canBind(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
