import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// `GET /api/events` on a live test server, read as a browser's EventSource reads it: the answer's head, then
/// frames as they come (de-chunked), collected by a reading task so a test can wait for what it expects.
struct TestEventStream: Sendable {
    struct Frame: Sendable, Equatable {
        var event = "message"
        var id: String?
        var data = ""
        var comment: String?

        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
        }
        var seq: Int? { json?["seq"] as? Int }
    }

    /// The answer's status line and headers.
    let head: String
    private let frames: NIOLockedValueBox<[Frame]>
    private let ended: NIOLockedValueBox<Bool>

    var status: Int { Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0 }
    var received: [Frame] { frames.withLockedValue { $0 } }
    var events: [Frame] { received.filter { $0.comment == nil && $0.event != "ready" } }
    /// The server closed the stream (its last chunk, or the connection).
    var hasEnded: Bool { ended.withLockedValue { $0 } }
    var lastID: String? { received.last { $0.id != nil }?.id }

    /// Opens a stream and runs `body` while it is open; the connection is closed when `body` returns.
    static func open<Value: Sendable>(
        port: Int, topics: String, headers: [String: String] = [:], _ body: (TestEventStream) async throws -> Value
    ) async throws -> Value {
        try await RawConnection.open(port: port) { connection in
            var request = "GET /api/events?topics=\(topics) HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
            for (name, value) in headers { request += "\(name): \(value)\r\n" }
            try await connection.send(request + "\r\n")
            let frames = NIOLockedValueBox<[Frame]>([])
            let ended = NIOLockedValueBox(false)
            let head = NIOLockedValueBox<String?>(nil)
            let reader = Task {
                var parser = Parser()
                do {
                    for try await buffer in connection.inbound {
                        parser.feed(Array(buffer.readableBytesView))
                        if let parsedHead = parser.head { head.withLockedValue { $0 = parsedHead } }
                        let parsed = parser.takeFrames()
                        if !parsed.isEmpty { frames.withLockedValue { $0 += parsed } }
                        if parser.finished { break }
                    }
                } catch {}
                if head.withLockedValue({ $0 }) == nil { head.withLockedValue { $0 = parser.head ?? "" } }
                ended.withLockedValue { $0 = true }
            }
            defer { reader.cancel() }
            let deadline = ContinuousClock.now + .seconds(20)
            while head.withLockedValue({ $0 }) == nil {
                guard ContinuousClock.now < deadline else { throw TestFailure("no answer to GET /api/events?topics=\(topics)") }
                try await Task.sleep(for: .milliseconds(5))
            }
            let stream = TestEventStream(head: head.withLockedValue { $0 ?? "" }, frames: frames, ended: ended)
            return try await body(stream)
        }
    }

    /// Waits until `condition` holds for what has arrived; fails after `limit`.
    @discardableResult
    func wait(within limit: Duration = .seconds(20), for what: String, until condition: ([Frame]) -> Bool) async throws -> [Frame] {
        let deadline = ContinuousClock.now + limit
        while true {
            let frames = received
            if condition(frames) { return frames }
            guard ContinuousClock.now < deadline else { throw TestFailure("no \(what) within \(limit); got \(frames.map { "\($0.event) \($0.data)" })") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func waitForEnd(within limit: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + limit
        while !hasEnded {
            guard ContinuousClock.now < deadline else { throw TestFailure("the stream is still open after \(limit)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// HTTP/1.1 head, then a chunked body of SSE lines.
    private struct Parser {
        var raw: [UInt8] = []
        var head: String?
        var body = ""
        var finished = false
        var lines = ""
        var current = Frame()
        var hasField = false
        var frames: [Frame] = []

        /// Where `\r\n` starts in `bytes` at or after `from`.
        static func crlf(in bytes: [UInt8], from start: Int = 0) -> Int? {
            guard bytes.count >= 2 else { return nil }
            var index = start
            while index + 1 < bytes.count {
                if bytes[index] == 13 && bytes[index + 1] == 10 { return index }
                index += 1
            }
            return nil
        }

        mutating func feed(_ bytes: [UInt8]) {
            raw += bytes
            if head == nil {
                var end: Int?
                var from = 0
                while let at = Self.crlf(in: raw, from: from) {
                    if at + 3 < raw.count, raw[at + 2] == 13, raw[at + 3] == 10 { end = at; break }
                    from = at + 2
                }
                guard let end else { return }
                head = String(decoding: raw[..<end], as: UTF8.self)
                raw = Array(raw[(end + 4)...])
                if !(head?.lowercased().contains("transfer-encoding: chunked") ?? false) {
                    // An error answer with a length: the body is not a stream.
                    lines += String(decoding: raw, as: UTF8.self)
                    raw = []
                    finished = !(head?.hasPrefix("HTTP/1.1 200") ?? false)
                    return
                }
            }
            // De-chunk: "<hex>\r\n<bytes>\r\n"…; a chunk is whole UTF-8 (one write of whole frames).
            while let lineEnd = Self.crlf(in: raw) {
                guard let size = Int(String(decoding: raw[..<lineEnd], as: UTF8.self), radix: 16) else { finished = true; return }
                if size == 0 { finished = true; return }
                let start = lineEnd + 2
                guard raw.count >= start + size + 2 else { break }
                lines += String(decoding: raw[start..<(start + size)], as: UTF8.self)
                raw = Array(raw[(start + size + 2)...])
            }
            parseLines()
        }

        mutating func parseLines() {
            while let newline = lines.firstIndex(of: "\n") {
                let line = String(lines[..<newline])
                lines = String(lines[lines.index(after: newline)...])
                if line.isEmpty {
                    if hasField { frames.append(current) }
                    current = Frame()
                    hasField = false
                } else if line.hasPrefix(":") {
                    frames.append(Frame(event: "", comment: String(line.dropFirst()).trimmingCharacters(in: .whitespaces)))
                } else {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    let field = String(parts[0])
                    var value = parts.count > 1 ? String(parts[1]) : ""
                    if value.hasPrefix(" ") { value.removeFirst() }
                    switch field {
                    case "event": current.event = value
                    case "id": current.id = value
                    case "data": current.data = current.data.isEmpty ? value : current.data + "\n" + value
                    default: break  // retry
                    }
                    hasField = field != "retry" || hasField
                }
            }
        }

        mutating func takeFrames() -> [Frame] {
            defer { frames = [] }
            return frames
        }
    }
}
