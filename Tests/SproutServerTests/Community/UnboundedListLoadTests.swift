import Foundation
import Logging
import Synchronization
import Testing
@testable import SproutServer

/// Four `_limit=-1` lists at once against a real `sprout serve` (its memory is then its own to measure): its
/// memory stays flat and `/health` keeps answering at once. Before, each answer was built whole on the event
/// loop — four `/posts?_limit=-1` made `/health` take 7 s, and each copy of the answer was held in memory.
/// Run alone by scripts/test (`SPROUT_LOAD_TESTS=1`): beside the parallel suite it would measure the suite.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SPROUT_LOAD_TESTS"] == "1", "a load test: scripts/test runs it alone"))
struct UnboundedListLoadTests {
    static let comments = 10_000
    static let commentText = String(repeating: "긴 댓글 하나 ", count: 140)  // ~2 KB of UTF-8

    @Test func fourUnboundedListsAtOnceKeepMemoryAndHealthFlat() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let port = try SproutProcess.freePort()
        let server = try SproutProcess(["serve", "--port", "\(port)", "--data-dir", data], environment: ["COMMUNITY_LIST_MAX_ROWS": "100000"])
        try await server.waitForOutput(containing: "in a browser")
        let tokens = [try await Self.signUp("bulk1", port: port), try await Self.signUp("bulk2", port: port)]
        let post = try await Self.createPost(port: port, token: tokens[0])
        try await Self.addComments(on: post, dataDirectory: data)

        let baseline = try Self.residentBytes(of: server.process.processIdentifier)
        let finished = Countdown(4)
        let results = try await withThrowingTaskGroup(of: Sample.self) { group in
            for index in 0..<4 {
                group.addTask {
                    defer { finished.tick() }
                    let answer = try await Self.curlDiscardingBody(port: port, path: "/comments?_limit=-1", token: tokens[index % 2])
                    return .list(status: answer.status, byteCount: answer.byteCount, tail: answer.tail)
                }
            }
            group.addTask {
                var samples: [Sample] = []
                let clock = ContinuousClock()
                while !finished.isDone {
                    let started = clock.now
                    let health = try await Self.request("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", port: port)
                    samples.append(.health(ok: health.hasPrefix("HTTP/1.1 200"), took: clock.now - started))
                    samples.append(.memory(try Self.residentBytes(of: server.process.processIdentifier)))
                    try await Task.sleep(for: .milliseconds(100))
                }
                return .many(samples)
            }
            var all: [Sample] = []
            for try await sample in group {
                if case .many(let samples) = sample { all += samples } else { all.append(sample) }
            }
            return all
        }
        try await server.stop()

        var lists = 0
        var healthChecks: [Duration] = []
        var peak = baseline
        for sample in results {
            switch sample {
            case .list(let status, let byteCount, let tail):
                lists += 1
                #expect(status == 200)
                #expect(byteCount > 20_000_000, "each answer is ~23 MB, got \(byteCount) bytes")
                #expect(tail.contains("}]"), "the array is whole: …\(tail)")
            case .health(let ok, let took):
                #expect(ok)
                healthChecks.append(took)
            case .memory(let bytes):
                peak = max(peak, bytes)
            case .many:
                break
            }
        }
        #expect(lists == 4)
        #expect(healthChecks.count >= 3, "the lists should take a while: \(healthChecks.count) checks")
        let growth = peak - baseline
        #expect(growth < 60_000_000, "memory grew by \(growth / 1_000_000) MB while four ~23 MB lists were written")
        let slowest = try #require(healthChecks.max())
        #expect(slowest < .seconds(2), "/health took \(slowest) at worst, over \(healthChecks.count) checks")
    }

    // MARK: - Helpers

    enum Sample: Sendable {
        case list(status: Int, byteCount: Int, tail: String)
        case health(ok: Bool, took: Duration)
        case memory(Int)
        case many([Sample])
    }

    /// A GET by curl, a real client that reads as fast as the server writes (a client in this debug-built test
    /// process would be the slow side): the body goes to a file of which only the length and the end are read.
    static func curlDiscardingBody(port: Int, path: String, token: String) async throws -> (status: Int, byteCount: Int, tail: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-list-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let statusFile = file.path + ".status"
        defer { try? FileManager.default.removeItem(atPath: statusFile) }
        let curl = try ChildProcess(
            "/usr/bin/curl", ["-s", "-o", file.path, "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", "http://127.0.0.1:\(port)\(path)"],
            environment: ["PATH": "/usr/bin:/bin"], standardOutput: statusFile, standardError: "/dev/null"
        )
        while curl.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        let status = Int((try? String(contentsOfFile: statusFile, encoding: .utf8)) ?? "") ?? 0
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let byteCount = Int(try handle.seekToEnd())
        try handle.seek(toOffset: UInt64(max(0, byteCount - 64)))
        let tail = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        return (status, byteCount, tail)
    }

    /// One request on its own connection; the whole answer as text.
    static func request(_ text: String, port: Int) async throws -> String {
        try await RawConnection.open(port: port) { connection in
            try await connection.send(text)
            guard let answer = try await connection.readUntilClosed(within: .seconds(60)) else { throw TestFailure("no answer to \(text)") }
            return answer
        }
    }

    static func json(_ method: String, _ path: String, _ body: String, token: String? = nil, port: Int) async throws -> [String: Any] {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        let answer = try await request(
            "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\(authorization)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)",
            port: port
        )
        guard let start = answer.range(of: "\r\n\r\n"),
              let object = try JSONSerialization.jsonObject(with: Data(answer[start.upperBound...].utf8)) as? [String: Any] else {
            throw TestFailure("not a JSON answer: \(answer)")
        }
        return object
    }

    static func signUp(_ username: String, port: Int) async throws -> String {
        let body = #"{"username":"\#(username)","email":"\#(username)@example.com","password":"password1"}"#
        guard let token = try await json("POST", "/auth/local/register", body, port: port)["jwt"] as? String else { throw TestFailure("no token") }
        return token
    }

    static func createPost(port: Int, token: String) async throws -> Int {
        guard let id = try await json("POST", "/posts", #"{"text":"bulk"}"#, token: token, port: port)["id"] as? Int else { throw TestFailure("no post") }
        return id
    }

    /// Tens of thousands of comments in one statement, written beside the running server (SQLite, WAL).
    static func addComments(on post: Int, dataDirectory: String) async throws {
        let database = try SproutDatabase(
            settings: .sqlite(path: dataDirectory + "/sprout.sqlite"), migrations: SproutMigrations.all, logger: testLogger()
        )
        let statement = SQLStatement(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
            INSERT INTO comments (comment, post_id, user_id, created_at, updated_at)
            SELECT $2, id, user_id, created_at, created_at FROM posts, n WHERE posts.id = $3
            """,
            .int(comments), .text(commentText), .int(post)
        )
        _ = try await database.executor.write(statement, as: SQLInt.self)
        await database.shutdown()
    }

    /// A process's resident memory, from /proc (Linux).
    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else {
            throw TestFailure("no VmRSS for process \(pid)")
        }
        return kilobytes * 1024
    }
}

/// Counts tasks down to done, from any task.
private final class Countdown: Sendable {
    private let remaining: Mutex<Int>

    init(_ count: Int) { remaining = Mutex(count) }

    var isDone: Bool { remaining.withLock { $0 <= 0 } }
    func tick() { remaining.withLock { $0 -= 1 } }
}
