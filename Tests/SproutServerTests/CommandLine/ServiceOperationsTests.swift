import Foundation
import Synchronization
import Testing
@testable import SproutServer

/// `sprout serve` as a service manager runs it: SIGTERM loses nothing, metrics on a port of their own, JSON logs.
@Suite(.serialized) struct ServiceOperationsTests {
    /// One request on a connection of its own (`Connection: close`); the whole answer.
    static func exchange(port: Int, _ request: String) async throws -> String {
        try await RawConnection.open(port: port) { connection in
            try await connection.send(request)
            return try await connection.readUntilClosed(within: .seconds(30)) ?? ""
        }
    }

    static func get(port: Int, _ path: String) async throws -> String {
        try await exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    }

    static func createRequest(_ body: String) -> String {
        "POST /api/v2/todos-json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nConnection: close\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n"
    }

    /// Polls the metrics listener until the public one counts `count` requests in flight.
    static func waitForRequestsInFlight(_ count: Int = 1, metricsPort: Int, within limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let metrics = try await get(port: metricsPort, "/metrics")
            let line = "\nsprout_http_requests_in_flight \(count)"
            if metrics.contains(line + "\n") || metrics.contains(line + ".0\n") { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("not \(count) requests in flight within \(limit)")
    }

    static func todoID(in answer: String) -> Int? {
        guard answer.hasPrefix("HTTP/1.1 200"), let match = answer.firstMatch(of: /"id"\s*:\s*(\d+)/) else { return nil }
        return Int(match.1)
    }

    @Test func sigtermLetsRequestsInFlightFinishAndLosesNoAcknowledgedWrite() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let port = try SproutProcess.freePort()
        let metricsPort = try SproutProcess.freePort()
        let server = try SproutProcess(
            ["serve", "--port", "\(port)", "--metrics-port", "\(metricsPort)", "--data-dir", data, "--shutdown-grace", "30"],
            environment: ["LOG_LEVEL": "info"]
        )
        try await server.waitForOutput(containing: "in a browser")

        // Writes acknowledged before the signal, many at once (the SQLite writer batches them).
        let acknowledged = try await withThrowingTaskGroup(of: Int?.self) { group in
            for index in 0..<30 {
                group.addTask {
                    let body = #"{"title": "before \#(index)", "is_done": false}"#
                    return Self.todoID(in: try await Self.exchange(port: port, Self.createRequest(body) + body))
                }
            }
            return try await group.reduce(into: [Int]()) { ids, id in if let id { ids.append(id) } }
        }
        #expect(acknowledged.count == 30)

        // Requests in flight when SIGTERM arrives: head and part of the body sent, the rest only once the server
        // has stopped accepting new connections.
        let sentPart = SharedCount()
        let refusing = DoneFlag()
        let inFlight = (0..<5).map { index in
            Task {
                try await RawConnection.open(port: port) { connection in
                    let body = #"{"title": "in flight \#(index)", "is_done": false}"#
                    try await connection.send(Self.createRequest(body) + String(body.prefix(10)))
                    sentPart.increment()
                    let deadline = ContinuousClock.now + .seconds(20)
                    while !refusing.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                    try await connection.send(String(body.dropFirst(10)))
                    return try await connection.readUntilClosed(within: .seconds(30)) ?? ""
                }
            }
        }
        while sentPart.value < 5 { try await Task.sleep(for: .milliseconds(20)) }
        // Signalled only once the server is handling all five: one it has not read yet is an idle connection, which
        // draining closes at once ("I/O on closed channel" here, after a fixed 300 ms wait on a loaded machine).
        try await Self.waitForRequestsInFlight(5, metricsPort: metricsPort, within: .seconds(20))
        server.process.terminate()
        // The drain has begun once the server says so; on a loaded machine the signal may take a while to be
        // handled, and that is not what this test is about.
        try await server.waitForErrorOutput(containing: "draining", within: .seconds(30))
        // New connections are refused from now on (one accepted just before is closed as idle).
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            do {
                _ = try await RawConnection.open(port: port) { _ in }
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                refusing.set()
                break
            }
        }
        #expect(refusing.isSet, "the server still accepted connections after SIGTERM")
        refusing.set()
        var finished: [Int] = []
        for task in inFlight {
            let answer = try await task.value
            let id = Self.todoID(in: answer)
            #expect(id != nil, "\(answer)")
            if let id { finished.append(id) }
        }
        #expect(try await server.exit(within: .seconds(30)) == 0, "\(server.standardError)")
        #expect(server.standardError.contains("draining"), "\(server.standardError)")

        // Every acknowledged write is there after a restart.
        let restarted = try SproutProcess(["serve", "--port", "\(port)", "--data-dir", data])
        try await restarted.waitForOutput(containing: "in a browser")
        for id in acknowledged + finished {
            let answer = try await Self.get(port: port, "/api/v2/todos/\(id)")
            #expect(answer.hasPrefix("HTTP/1.1 200"), "todo \(id): \(answer.prefix(200))")
        }
        try await restarted.stop()
    }

    /// A request that never finishes holds the shutdown only for the grace, then is cancelled; the exit is still clean.
    @Test func aStuckRequestHoldsTheShutdownOnlyForTheGrace() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let port = try SproutProcess.freePort()
        let metricsPort = try SproutProcess.freePort()
        let server = try SproutProcess([
            "serve", "--port", "\(port)", "--metrics-port", "\(metricsPort)", "--data-dir", data, "--shutdown-grace", "1",
        ])
        try await server.waitForOutput(containing: "in a browser")
        try await RawConnection.open(port: port) { connection in
            try await connection.send(Self.createRequest("{\"title\": \"never finished\"}") + "{")
            // Signalled only once the server is handling the request: a connection it has not read yet is idle, and
            // draining closes it at once (a fixed 300 ms wait was too short on a loaded machine).
            try await Self.waitForRequestsInFlight(metricsPort: metricsPort, within: .seconds(20))
            let signalled = ContinuousClock.now
            server.process.terminate()
            #expect(try await server.exit(within: .seconds(20)) == 0, "\(server.standardError)")
            let took = signalled.duration(to: .now)
            #expect(took >= .milliseconds(900) && took < .seconds(15), "stopped after \(took)")
        }
    }

    @Test func metricsAreServedOnAListenerOfTheirOwnAndLogsAreJSON() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let port = try SproutProcess.freePort()
        let metricsPort = try SproutProcess.freePort()
        let server = try SproutProcess(
            ["serve", "--port", "\(port)", "--metrics-port", "\(metricsPort)", "--log-format", "json", "--data-dir", data],
            environment: ["LOG_LEVEL": "info"]
        )
        try await server.waitForOutput(containing: "in a browser")
        #expect(try await Self.get(port: port, "/api/v2/todos").hasPrefix("HTTP/1.1 200"))
        #expect(try await Self.get(port: port, "/metrics").hasPrefix("HTTP/1.1 404"), "never on the public port")
        let metrics = try await Self.get(port: metricsPort, "/metrics")
        #expect(metrics.hasPrefix("HTTP/1.1 200"))
        #expect(metrics.contains(#"sprout_http_requests_total{route="/api/v2/todos",method="GET",status="2xx"} 1"#), "\(metrics)")
        #expect(metrics.contains("process_resident_memory_bytes "))
        #expect(try await Self.get(port: metricsPort, "/api/v2/todos").hasPrefix("HTTP/1.1 404"), "the metrics port serves only metrics")
        try await server.stop()
        #expect(server.process.terminationStatus == 0)

        let lines = server.standardError.split(separator: "\n")
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] }
        #expect(objects.count == lines.count, "every line is one JSON object: \(server.standardError)")
        let messages = objects.compactMap { $0["message"] }
        for start in ["version", "database", "data directory", "listening", "metrics"] {
            #expect(messages.contains(start), "\(start)")
        }
        #expect(objects.first { $0["message"] == "metrics" }?["address"] == "127.0.0.1:\(metricsPort)")
        #expect(objects.first { $0["message"] == "listening" }?["address"] == "127.0.0.1:\(port)")
        let access = try #require(objects.first { $0["message"] == "GET /api/v2/todos 200" })
        #expect(access["route"] == "/api/v2/todos" && access["status"] == "200" && access["hb.request.id"] != nil)
    }
}

/// A count several tasks add to.
final class SharedCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
