import Foundation
import Testing
@testable import SproutServer

/// The SMTP client and the mail it writes, against the test sink.
@Suite struct SMTPClientTests {
    static let message = MailMessage(
        from: MailAddress(name: "새싹 Sprout", address: "no-reply@sprout.example"), to: "reader@example.com",
        subject: "[Sprout] 비밀번호 재설정 / Reset your password, a subject long enough to need several encoded words",
        body: "첫 줄\n.a line starting with a dot\n..two dots\n\nEnglish text, then 한국어."
    )

    @Test func aMailArrivesWholeWithUTF8TextAndEncodedHeaders() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        let client = SMTPClient(server: try SMTPServer(url: sink.url), heloName: "sprout.example")
        try await client.send(Self.message, messageID: "one@sprout.example", date: Date(timeIntervalSince1970: 1_800_000_000))
        let mail = try #require(try await sink.waitForMessages(1).first)
        #expect(mail.from == "no-reply@sprout.example" && mail.to == ["reader@example.com"])
        #expect(mail.text == Self.message.body.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(mail.header("Date") == "Fri, 15 Jan 2027 08:00:00 +0000")
        #expect(mail.header("Message-ID") == "<one@sprout.example>")
        let subject = try #require(mail.data.range(of: "Subject: ").map { mail.data[$0.upperBound...] }?.components(separatedBy: "\r\nDate:").first)
        #expect(Self.decodedWords(subject) == Self.message.subject)
        #expect(subject.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 }, "RFC 2047: encoded words of at most 75 characters")
        #expect(mail.authenticatedAs == nil)
    }

    @Test func aUserAndPasswordAreSentWithAuthPlain() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        let server = try SMTPServer(url: "smtp://mailer%40sprout:p%3Ass@127.0.0.1:\(sink.port)")
        #expect(server.username == "mailer@sprout" && server.password == "p:ss")
        try await SMTPClient(server: server, heloName: "sprout.example").send(Self.message, messageID: "a@b.c", date: Date())
        #expect(try await sink.waitForMessages(1).first?.authenticatedAs == "mailer@sprout")
    }

    @Test func starttlsRequiredRefusesAServerWithoutIt() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        let client = SMTPClient(server: try SMTPServer(url: sink.url + "?starttls=required"), heloName: "sprout.example")
        await #expect { try await client.send(Self.message, messageID: "a@b.c", date: Date()) } throws: { error in
            (error as? SMTPError)?.isPermanent == true && "\(error)".contains("STARTTLS")
        }
        #expect(sink.received.isEmpty)
    }

    /// `SMTPClient` refuses to authenticate without TLS unless the server is one of these (a relay on this machine).
    @Test func onlyALoopbackServerCountsAsLocalForAPasswordWithoutTLS() throws {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            #expect(SMTPServer(host: host, port: 25, security: .startTLSWhenOffered).isLoopback, "\(host)")
        }
        for host in ["mail.example", "10.0.0.1", "localhost.evil.example", "128.0.0.1", "127.example.com"] {
            #expect(!SMTPServer(host: host, port: 25, security: .startTLSWhenOffered).isLoopback, "\(host)")
        }
    }

    @Test func anUnreachableServerIsAFailureToTryAgain() async throws {
        let client = SMTPClient(server: SMTPServer(host: "127.0.0.1", port: 1, security: .startTLSWhenOffered), heloName: "x")
        await #expect { try await client.send(Self.message, messageID: "a@b.c", date: Date()) } throws: { error in
            (error as? SMTPError).map { !$0.isPermanent } == true
        }
    }

    @Test func smtpURLsAreReadOrRefusedWithoutQuotingThem() throws {
        #expect(try SMTPServer(url: "smtps://u:p@mail.example").port == 465)
        #expect(try SMTPServer(url: "smtps://u:p@mail.example").security == .implicitTLS)
        #expect(try SMTPServer(url: "smtp://mail.example").port == 587)
        #expect(try SMTPServer(url: "smtp://mail.example:25?starttls=required").security == .startTLSRequired)
        #expect("\(try SMTPServer(url: "smtp://u:hunter2@mail.example:25"))" == "smtp://u@mail.example:25")
        for bad in ["http://mail.example", "smtp://", "smtp://mail.example?starttls=maybe", "smtp://mail.example?tls=1", "smtp://:pw@mail.example"] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try SMTPServer(url: bad) }
            do { _ = try SMTPServer(url: bad) } catch { #expect(!"\(error)".contains("pw@")) }
        }
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["MAIL_FROM": "not an address"]) }
        let configured = try SproutConfiguration.fromEnvironment(["MAIL_FROM": "Sprout <hello@sprout.example>", "SMTP_URL": "smtp://127.0.0.1:2525"])
        #expect(configured.mail.sender(publicURL: "http://x").address == "hello@sprout.example")
        #expect(SproutConfiguration().mail.sender(publicURL: "https://sprout.example:8443").address == "no-reply@sprout.example")
    }

    @Test func headerValuesCannotCarryLineBreaks() {
        #expect(MailAddress(parsing: "a@example.com\r\nBcc: victim@example.com") == nil)
        #expect(MailAddress(parsing: "Name <a@example.com>") == MailAddress(name: "Name", address: "a@example.com"))
    }

    /// RFC 2047 words back to text.
    static func decodedWords(_ header: String) -> String {
        header.components(separatedBy: "\r\n").map { $0.trimmingCharacters(in: .whitespaces) }.map { word -> String in
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?=") else { return word }
            let base64 = String(word.dropFirst(10).dropLast(2))
            return Data(base64Encoded: base64).flatMap { String(data: $0, encoding: .utf8) } ?? "?"
        }.joined()
    }
}
