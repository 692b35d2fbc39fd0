import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A small SMTP client (RFC 5321) over SwiftNIO: EHLO, STARTTLS or TLS from the start (NIOSSL, the system's
/// trust roots), AUTH PLAIN or LOGIN, one message per connection. No maintained Swift SMTP client on SwiftNIO was
/// at hand; what Sprout needs of SMTP is this much.
struct SMTPClient: Sendable {
    let server: SMTPServer
    /// The name Sprout gives itself in EHLO: the public URL's host.
    let heloName: String
    /// The longest a whole delivery may take, connection to QUIT.
    var deadline: Duration = .seconds(60)
    var tls: TLSConfiguration = .makeClientConfiguration()

    /// Delivers one message to one recipient. Throws `SMTPError`: `.permanent` when the server refused it for good
    /// (a 5xx), anything else may be tried again.
    func send(_ message: MailMessage, messageID: String, date: Date) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await deliver(message, messageID: messageID, date: date) }
            group.addTask {
                try await Task.sleep(for: deadline)
                throw SMTPError.timedOut
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private func deliver(_ message: MailMessage, messageID: String, date: Date) async throws {
        let tlsContext = try NIOSSLContext(configuration: tls)
        let serverName = Self.isIPAddress(server.host) ? nil : server.host
        let implicitTLS = server.security == .implicitTLS
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(15))
                .connect(host: server.host, port: server.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if implicitTLS {
                            try channel.pipeline.syncOperations.addHandler(try NIOSSLClientHandler(context: tlsContext, serverHostname: serverName))
                        }
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw SMTPError.unreachable("\(error)")
        }
        try await channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(replies: inbound.makeAsyncIterator(), outbound: outbound)
            try await session.expect(220, after: nil)
            var capabilities = try await hello(&session)
            var secure = implicitTLS
            if !secure {
                if capabilities.contains(where: { $0.uppercased() == "STARTTLS" }) {
                    try await session.expect(220, after: "STARTTLS")
                    try await channel.channel.eventLoop.submit {
                        try channel.channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tlsContext, serverHostname: serverName), position: .first
                        )
                    }.get()
                    secure = true
                    capabilities = try await hello(&session)
                } else if server.security == .startTLSRequired {
                    throw SMTPError.permanent("the server does not offer STARTTLS, and SMTP_URL asks for it (starttls=required)")
                }
            }
            if let username = server.username {
                guard secure || server.isLoopback else {
                    throw SMTPError.permanent("the server offers no TLS: the password is not sent in the clear (use smtps:// or a server with STARTTLS)")
                }
                try await authenticate(&session, username: username, password: server.password ?? "", capabilities: capabilities)
            }
            try await session.expect(250, after: "MAIL FROM:<\(message.from.address)>")
            try await session.expect(250, 251, after: "RCPT TO:<\(message.to)>")
            try await session.expect(354, after: "DATA")
            try await session.expect(250, after: Self.dotStuffed(message.rendered(date: date, messageID: messageID)) + ".")
            _ = try? await session.command("QUIT")
        }
    }

    /// EHLO, answering the capabilities (the reply's lines after the first); HELO for a server that knows no EHLO.
    private func hello(_ session: inout SMTPSession) async throws -> [String] {
        let reply = try await session.command("EHLO \(heloName)")
        if reply.code == 250 { return Array(reply.lines.dropFirst()) }
        try await session.expect(250, after: "HELO \(heloName)")
        return []
    }

    private func authenticate(_ session: inout SMTPSession, username: String, password: String, capabilities: [String]) async throws {
        let mechanisms = capabilities.first { $0.uppercased().hasPrefix("AUTH") }?.uppercased().split(separator: " ").dropFirst() ?? []
        if mechanisms.contains("PLAIN") || !mechanisms.contains("LOGIN") {
            let credentials = Data(("\0" + username + "\0" + password).utf8).base64EncodedString()
            try await session.expect(235, after: "AUTH PLAIN \(credentials)", hiding: "AUTH PLAIN …")
        } else {
            try await session.expect(334, after: "AUTH LOGIN")
            try await session.expect(334, after: Data(username.utf8).base64EncodedString(), hiding: "(user name)")
            try await session.expect(235, after: Data(password.utf8).base64EncodedString(), hiding: "(password)")
        }
    }

    /// A line starting with "." gets another (RFC 5321 4.5.2), so the message cannot end the DATA early.
    static func dotStuffed(_ text: String) -> String {
        text.components(separatedBy: "\r\n").map { $0.hasPrefix(".") ? "." + $0 : $0 }.joined(separator: "\r\n")
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}

/// Why a mail was not delivered. `permanent` failures are not tried again.
enum SMTPError: Error, CustomStringConvertible {
    case unreachable(String)
    case timedOut
    case closed
    case malformedReply
    /// The server answered `code` where another was expected (4xx: try later; 5xx: refused for good).
    case refused(code: Int, text: String, command: String)
    case permanent(String)

    var isPermanent: Bool {
        switch self {
        case .refused(let code, _, _): code >= 500
        case .permanent: true
        default: false
        }
    }

    var description: String {
        switch self {
        case .unreachable(let reason): "cannot reach the SMTP server: \(reason)"
        case .timedOut: "the SMTP server did not finish in time"
        case .closed: "the SMTP server closed the connection"
        case .malformedReply: "the SMTP server's reply could not be read"
        case .refused(let code, let text, let command): "the SMTP server answered \(code) \(text) to \(command)"
        case .permanent(let reason): reason
        }
    }
}

/// One SMTP conversation: commands out, multi-line replies (`250-…` then `250 …`) in.
struct SMTPSession {
    struct Reply {
        let code: Int
        let lines: [String]
    }

    /// A server that sends more than this in one reply is not an SMTP server worth waiting for.
    static let longestReply = 64 * 1024

    var replies: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private var pending = ByteBuffer()

    init(replies: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
        self.replies = replies
        self.outbound = outbound
    }

    /// Sends a command (or a DATA body) and reads the reply.
    mutating func command(_ line: String) async throws -> Reply {
        try await outbound.write(ByteBuffer(string: line + "\r\n"))
        return try await reply()
    }

    /// Sends `line` (nothing when nil: the greeting) and insists on one of `codes`. `hiding` is what an error
    /// says was sent, where the line holds credentials.
    mutating func expect(_ codes: Int..., after line: String?, hiding: String? = nil) async throws {
        let answer = if let line { try await command(line) } else { try await reply() }
        guard codes.contains(answer.code) else {
            let shown = hiding ?? line.map { $0.count > 40 ? String($0.prefix(40)) + "…" : $0 } ?? "the greeting"
            throw SMTPError.refused(code: answer.code, text: answer.lines.first ?? "", command: shown)
        }
    }

    private mutating func reply() async throws -> Reply {
        var lines: [String] = []
        while true {
            let line = try await nextLine()
            guard line.utf8.count >= 3, let code = Int(line.prefix(3)) else { throw SMTPError.malformedReply }
            let rest = line.dropFirst(3)
            lines.append(String(rest.dropFirst()))
            if rest.first != "-" { return Reply(code: code, lines: lines) }
        }
    }

    private mutating func nextLine() async throws -> String {
        while true {
            if let end = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = end - pending.readerIndex
                var line = pending.readString(length: length) ?? ""
                pending.moveReaderIndex(forwardBy: 1)
                if line.hasSuffix("\r") { line.removeLast() }
                return line
            }
            guard pending.readableBytes < Self.longestReply else { throw SMTPError.malformedReply }
            guard var more = try await replies.next() else { throw SMTPError.closed }
            pending.discardReadBytes()
            pending.writeBuffer(&more)
        }
    }
}
