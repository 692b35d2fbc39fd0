import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
@testable import SproutServer

/// Slow or vanishing clients: none may hold a connection for ever, and none counts as a server error.
@Suite struct ConnectionLimitsTests {
    /// A request that announces a 100-byte body and sends only its first 9 bytes.
    static let unfinishedPost =
        "POST /api/v2/todos-json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"title\":"

    /// How long a test waits for the server to close before calling it a hang. Far above the timeouts under test:
    /// with the whole suite running on two cores, the close has come more than 15 s after a 2 s idle timeout.
    /// The tests show that the server ends such connections and how, not how promptly.
    static let hangLimit = Duration.seconds(90)

    /// Runs a live server with short timeouts and a recording logger, and gives `body` its port.
    func withLiveServer(
        idleTimeout: Duration = .seconds(2), requestTimeout: Duration = .seconds(5), _ body: @Sendable (Int, LogRecorder) async throws -> Void
    ) async throws {
        let recorder = LogRecorder()
        try await withTestApp(.live, logger: recorder.logger(level: .debug), configure: { configuration in
            // Short, but not so short that a busy machine (the whole suite runs in parallel) trips them before
            // the test has sent its first bytes: 500 ms did, under load.
            configuration.server.idleTimeout = idleTimeout
            configuration.server.requestTimeout = requestTimeout
        }) { client, _ in
            try await body(try #require(client.port), recorder)
        }
    }

    @Test func timeoutsComeFromTheEnvironmentWithSensibleDefaults() throws {
        let defaults = try SproutConfiguration.fromEnvironment([:])
        #expect(defaults.server.idleTimeout == .seconds(30) && defaults.server.requestTimeout == .seconds(60))
        let set = try SproutConfiguration.fromEnvironment(["IDLE_TIMEOUT": "2.5", "REQUEST_TIMEOUT": "120"])
        #expect(set.server.idleTimeout == .milliseconds(2500) && set.server.requestTimeout == .seconds(120))
        for bad in ["0", "-1", "soon", "100000"] {
            #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["IDLE_TIMEOUT": bad]) }
        }
    }

    @Test func headersThatNeverFinishAreCutOffAfterTheIdleTimeout() async throws {
        try await withLiveServer { port, _ in
            try await RawConnection.open(port: port) { connection in
                try await connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
                let answer = try await connection.readUntilClosed(within: Self.hangLimit)
                #expect(answer == "", "the server should close the connection without an answer")
            }
        }
    }

    @Test func aBodyThatStopsArrivingIsCutOffAfterTheIdleTimeout() async throws {
        try await withLiveServer { port, recorder in
            try await RawConnection.open(port: port) { connection in
                try await connection.send(Self.unfinishedPost)
                let answer = try await connection.readUntilClosed(within: Self.hangLimit)
                #expect(answer != nil, "the server should close the connection")
            }
            #expect(recorder.records.allSatisfy { $0.level < .error })
        }
    }

    /// A body that trickles in a byte at a time never looks idle; the request timeout ends it with a 408.
    /// The idle timeout is far above the trickle's pace here: with every suite running at once, a 2 s idle timeout
    /// sometimes saw a gap in the trickle and closed the connection before the request timeout could answer.
    @Test func aBodyTrickledInIsAnswered408AndClosed() async throws {
        try await withLiveServer(idleTimeout: .seconds(30), requestTimeout: .seconds(3)) { port, recorder in
            try await RawConnection.open(port: port) { connection in
                try await connection.send(Self.unfinishedPost)
                let trickle = Task {
                    while true {
                        try await Task.sleep(for: .milliseconds(250))
                        try await connection.send(" ")
                    }
                }
                let answer = try await connection.readUntilClosed(within: Self.hangLimit)
                trickle.cancel()
                let text = try #require(answer, "the server should close the connection")
                #expect(text.hasPrefix("HTTP/1.1 408"))
                #expect(text.contains("did not arrive in time"))
            }
            #expect(recorder.records.allSatisfy { $0.level < .error })
        }
    }

    /// It used to be logged as an unhandled error, with 500 in the access line.
    @Test func aClientThatHangsUpMidBodyIsLoggedAsGoneNotAsAServerError() async throws {
        try await withLiveServer { port, recorder in
            try await RawConnection.open(port: port) { connection in
                try await connection.send(Self.unfinishedPost)
                try await Task.sleep(for: .milliseconds(100))
            }
            let accessLine = try await recorder.waitFor { $0.message.hasPrefix("POST /api/v2/todos-json") }
            #expect(accessLine?.message == "POST /api/v2/todos-json 499")
            #expect(recorder.records.contains { $0.level == .info && $0.message.contains("client went away") })
            #expect(recorder.records.allSatisfy { $0.level < .error }, "\(recorder.records.filter { $0.level >= .error }.map(\.message))")
        }
    }

    /// The bound on body read unasked (`RequestArrivalLimitsHandler`) must never touch a body the server takes as it
    /// arrives: over a real socket, five pictures at the Market's size limit (1.5 MB in all) are stored.
    @Test func aLargeUploadTakenAsItArrivesIsStored() async throws {
        try await withTestApp(.live) { client, _ in
            let vendor = try await client.makeVendor("large")
            let picture = TestImages.padded(try TestImages.jpeg(width: 300, height: 200), to: MarketUploadLimits().maximumImageBytes)
            let parts: [TestPart] = [.params(MarketUploadAbuseTests.params(vendor))] + Array(repeating: .image(picture), count: 5)
            let response = try await client.register(parts: parts, identifier: vendor.identifier)
            #expect(response.status == .created, "\(response.status) \(response.text)")
            #expect(response.json?["images"]?.array?.count == 5)
        }
    }

    @Test func normalRequestsOnAKeptAliveConnectionStillWork() async throws {
        try await withLiveServer { port, _ in
            try await RawConnection.open(port: port) { connection in
                let body = #"{"title": "over a raw socket"}"#
                try await connection.send(
                    "POST /api/v2/todos-json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
                        + "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                )
                let answer = try #require(try await connection.readUntilClosed(within: Self.hangLimit))
                #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
            }
        }
    }
}
