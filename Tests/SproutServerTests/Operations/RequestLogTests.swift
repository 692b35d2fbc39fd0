import Foundation
import HTTPTypes
import Logging
import Synchronization
import Testing
@testable import SproutServer

/// The access line and the JSON log format.
@Suite struct RequestLogTests {
    @Test func theAccessLineNamesRouteStatusDurationAccountAndRequestID() async throws {
        let recorder = LogRecorder()
        try await withTestApp(logger: recorder.logger(level: .info)) { client, _ in
            let account = try await client.signUp("logged")
            let response = try await client.send(.get, "/users/me", headers: account.bearer)
            #expect(response.status == .ok)
            let requestID = try #require(response.headers[HTTPField.Name("X-Request-ID")!])
            let line = try #require(recorder.records.first { $0.message == "GET /users/me 200" })
            #expect(line.metadata["route"]?.description == "/users/me")
            #expect(line.metadata["status"]?.description == "200")
            #expect(line.metadata["account"]?.description == "\(account.id)")
            #expect(line.metadata["hb.request.id"]?.description == requestID)
            #expect(Double(line.metadata["duration_ms"]?.description ?? "") != nil)
            // An anonymous request names no account; an unknown path has the one bounded route name.
            _ = try await client.send(.get, "/no/such/\(UUID().uuidString)")
            let unknown = try #require(recorder.records.first { $0.message.hasPrefix("GET /no/such/") })
            #expect(unknown.metadata["account"] == nil)
            #expect(unknown.metadata["route"]?.description == "NotFound")
        }
    }

    @Test func jsonLinesAreOneObjectEachWithEveryFieldAsText() throws {
        let lines = LockedLines()
        var logger = Logger(label: "sprout") { label in JSONLogHandler(label: label, output: LogOutput { lines.append($0) }) }
        logger.logLevel = .debug
        logger[metadataKey: "hb.request.id"] = "abc"
        logger.info("GET /a \"quoted\"\nnext\u{01} 한글", metadata: ["status": .stringConvertible(200), "route": "/a"])
        logger.debug("second")
        logger.trace("not written")
        let written = lines.all
        #expect(written.count == 2)
        #expect(written.allSatisfy { $0.hasSuffix("}\n") && $0.filter { $0 == "\n" }.count == 1 })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: String])
        #expect(object["message"] == "GET /a \"quoted\"\nnext\u{01} 한글")
        #expect(object["level"] == "info" && object["label"] == "sprout")
        #expect(object["status"] == "200" && object["route"] == "/a" && object["hb.request.id"] == "abc")
        let time = try #require(object["time"])
        #expect(time.hasSuffix("Z") && time.contains("."))
    }

    @Test func logFormatAndLevelComeFromTheEnvironment() throws {
        #expect(try SproutConfiguration.fromEnvironment([:]).server.logFormat == .text)
        #expect(try SproutConfiguration.fromEnvironment(["LOG_FORMAT": "JSON"]).server.logFormat == .json)
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["LOG_FORMAT": "xml"]) }
        #expect(try SproutConfiguration.fromEnvironment(["SHUTDOWN_GRACE": "2.5"]).server.shutdownGrace == .milliseconds(2500))
        #expect(try SproutConfiguration.fromEnvironment([:]).server.shutdownGrace == .seconds(10))
        let metrics = try SproutConfiguration.fromEnvironment(["METRICS_PORT": "9100"]).server
        #expect(metrics.metricsPort == 9100 && metrics.metricsHostname == "127.0.0.1")
        #expect(try SproutConfiguration.fromEnvironment([:]).server.metricsPort == nil)
        for broken in [["METRICS_PORT": "0"], ["METRICS_PORT": "8080"], ["METRICS_PORT": "x"], ["SHUTDOWN_GRACE": "0"]] {
            #expect(throws: ConfigurationError.self, "\(broken)") { try SproutConfiguration.fromEnvironment(broken) }
        }
    }
}

/// Lines written by a log handler, kept for a test to read.
final class LockedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
