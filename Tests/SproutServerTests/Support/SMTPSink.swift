import Foundation
import NIOCore
import NIOPosix
import NIOConcurrencyHelpers

/// An SMTP server for tests, on 127.0.0.1 and a free port: it speaks enough of RFC 5321 for Sprout's client
/// (EHLO, AUTH PLAIN, MAIL, RCPT, DATA, QUIT), keeps every message it accepts, and can refuse deliveries
/// (`refuseNext`) to show retries. No TLS: the tests send to a loopback address.
final class SMTPSink: Sendable {
    struct Received: Sendable {
        let from: String
        let to: [String]
        /// The message as sent, dot-stuffing undone.
        let data: String
        let authenticatedAs: String?

        /// The decoded text of a `text/plain` base64 body.
        var text: String {
            guard let split = data.range(of: "\r\n\r\n") else { return "" }
            let base64 = data[split.upperBound...].replacingOccurrences(of: "\r\n", with: "")
            return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        }

        func header(_ name: String) -> String? {
            let head = data.components(separatedBy: "\r\n\r\n").first ?? ""
            return head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }

        /// The first `http…` link in the text that contains `path`.
        func link(containing path: String) -> String? {
            text.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.hasPrefix("http") && $0.contains(path) }
        }
    }

    private struct State {
        var received: [Received] = []
        var refusals: [String] = []
    }

    let port: Int
    private let state = NIOLockedValueBox(State())
    private let server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let acceptor: Task<Void, Never>

    static func start() async throws -> SMTPSink {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return SMTPSink(server: server)
    }

    private init(server: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>) {
        self.server = server
        port = server.channel.localAddress?.port ?? 0
        let state = self.state
        acceptor = Task {
            try? await server.executeThenClose { connections in
                await withDiscardingTaskGroup { group in
                    do {
                        for try await connection in connections {
                            group.addTask { await Self.converse(on: connection, state: state) }
                        }
                    } catch {}
                }
            }
        }
    }

    var url: String { "smtp://127.0.0.1:\(port)" }

    var received: [Received] { state.withLockedValue { $0.received } }

    /// The next `count` deliveries are answered with `reply` (`451 try later`, `550 no such user`) at DATA's end.
    func refuseNext(_ count: Int, with reply: String) {
        state.withLockedValue { $0.refusals.append(contentsOf: Array(repeating: reply, count: count)) }
    }

    /// Waits until `count` messages have arrived (at most `seconds`), and answers them.
    func waitForMessages(_ count: Int, seconds: Double = 30) async throws -> [Received] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            let now = received
            if now.count >= count { return now }
            try await Task.sleep(for: .milliseconds(20))
        }
        return received
    }

    func stop() async {
        acceptor.cancel()
        try? await server.channel.close()
    }

    private static func converse(on connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, state: NIOLockedValueBox<State>) async {
        try? await connection.executeThenClose { inbound, outbound in
            func say(_ line: String) async throws { try await outbound.write(ByteBuffer(string: line + "\r\n")) }
            try await say("220 sink.test ESMTP ready")
            var pending = ""
            var from = ""
            var to: [String] = []
            var user: String?
            var data: [String]?
            for try await var chunk in inbound {
                pending += chunk.readString(length: chunk.readableBytes) ?? ""
                while let end = pending.range(of: "\r\n") {
                    let line = String(pending[..<end.lowerBound])
                    pending.removeSubrange(..<end.upperBound)
                    if data != nil {
                        if line == "." {
                            let message = data!.joined(separator: "\r\n") + "\r\n"
                            data = nil
                            let refusal = state.withLockedValue { $0.refusals.isEmpty ? nil : $0.refusals.removeFirst() }
                            if let refusal {
                                try await say(refusal)
                            } else {
                                state.withLockedValue { $0.received.append(Received(from: from, to: to, data: message, authenticatedAs: user)) }
                                try await say("250 2.0.0 queued")
                            }
                            from = ""
                            to = []
                        } else {
                            data!.append(line.hasPrefix(".") ? String(line.dropFirst()) : line)
                        }
                        continue
                    }
                    let verb = line.prefix(while: { $0 != " " && $0 != ":" }).uppercased()
                    switch verb {
                    case "EHLO": try await say("250-sink.test\r\n250-AUTH PLAIN\r\n250 8BITMIME")
                    case "HELO": try await say("250 sink.test")
                    case "AUTH":
                        let parts = line.split(separator: " ")
                        let decoded = parts.count == 3 ? Data(base64Encoded: String(parts[2])).flatMap { String(data: $0, encoding: .utf8) } : nil
                        user = decoded?.split(separator: "\0", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
                        try await say(user == nil ? "535 bad credentials" : "235 2.7.0 accepted")
                    case "MAIL":
                        from = Self.address(in: line)
                        try await say("250 ok")
                    case "RCPT":
                        to.append(Self.address(in: line))
                        try await say("250 ok")
                    case "DATA":
                        data = []
                        try await say("354 go ahead")
                    case "QUIT":
                        try await say("221 bye")
                        return
                    case "RSET", "NOOP": try await say("250 ok")
                    default: try await say("502 not implemented")
                    }
                }
            }
        }
    }

    private static func address(in line: String) -> String {
        guard let open = line.firstIndex(of: "<"), let close = line.lastIndex(of: ">"), open < close else { return "" }
        return String(line[line.index(after: open)..<close])
    }
}
