import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Strapi v3's forgot/reset/confirm routes, with real mails into an SMTP sink.
@Suite struct AccountRecoveryTests {
    static let newPassword = "a new password 1"

    /// The test app sending mail to `sink`, the worker looking at the outbox often.
    static func mailing(to sink: SMTPSink) -> (inout SproutConfiguration) -> Void {
        { configuration in
            configuration.mail.smtp = try! SMTPServer(url: sink.url)
            configuration.mail.pollInterval = .milliseconds(50)
            configuration.server.publicURL = "https://sprout.example"
        }
    }

    static func code(from mail: SMTPSink.Received, path: String) throws -> String {
        let link = try #require(mail.link(containing: path), "no link in \(mail.text)")
        return try #require(URLComponents(string: link)?.queryItems?.first?.value)
    }

    @Test func aForgottenPasswordIsResetThroughTheMailedLinkAndEveryOldCredentialDies() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        try await withTestApp(configure: Self.mailing(to: sink)) { client, database in
            let account = try await client.signUp("forgetful")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("forgetful"))
            let asked = try await client.sendJSON(.post, "/auth/forgot-password", #"{"email": "Forgetful@example.com"}"#)
            #expect(asked.status == .ok)
            #expect(asked.json?["ok"] == .bool(true))

            let mail = try #require(try await sink.waitForMessages(1).first)
            #expect(mail.to == ["forgetful@example.com"])
            #expect(mail.from == "no-reply@sprout.example")
            #expect(mail.header("Subject")?.hasPrefix("=?UTF-8?B?") == true)
            #expect(mail.header("Content-Type") == "text/plain; charset=UTF-8")
            #expect(mail.text.contains("forgetful님, 안녕하세요.") && mail.text.contains("Hello forgetful,"))
            let link = try #require(mail.link(containing: "/account/reset-password?code="))
            #expect(link.hasPrefix("https://sprout.example/account/reset-password?code="))
            let code = try Self.code(from: mail, path: "reset-password")
            #expect(code.count >= 43, "at least 256 bits")

            let reset = try await client.sendJSON(
                .post, "/auth/reset-password", #"{"code": "\#(code)", "password": "\#(Self.newPassword)", "passwordConfirmation": "\#(Self.newPassword)"}"#
            )
            SuiteLog.noteSecret(Self.newPassword)
            #expect(reset.status == .ok)
            #expect(reset.json?["user"]?["id"]?.int == account.id)
            let newToken = try #require(reset.json?["jwt"]?.string)
            SuiteLog.noteSecret(newToken)

            #expect(try await client.send(.get, "/users/me", headers: account.bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/web/session", headers: [.cookie: cookie]).json?["user"] == .null)
            #expect(try await client.send(.get, "/users/me", headers: [.authorization: "Bearer \(newToken)"]).status == .ok)
            #expect(try await client.sendForm(.post, "/auth/local", "identifier=forgetful&password=password1").status == .badRequest)
            _ = try await client.logIn("forgetful", password: Self.newPassword)

            let again = try await client.sendJSON(
                .post, "/auth/reset-password", #"{"code": "\#(code)", "password": "another one 2", "passwordConfirmation": "another one 2"}"#
            )
            #expect(again.status == .badRequest)
            #expect(again.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.code.provide"))
            // The sent mail's body is gone from the outbox: it held a live link.
            let sent = try await MailOutbox(executor: database.executor).list(limit: 10)
            #expect(sent.map(\.status) == [.sent] && sent.first?.body == "")
        }
    }

    @Test func anUnknownAddressGetsTheSameAnswerAndNoMail() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        try await withTestApp(configure: Self.mailing(to: sink)) { client, database in
            try await client.signUp("known")
            let unknown = try await client.sendForm(.post, "/auth/forgot-password", "email=nobody@example.com")
            let known = try await client.sendForm(.post, "/auth/forgot-password", "email=known@example.com")
            #expect(unknown.status == .ok && known.status == .ok)
            #expect(unknown.json == known.json)
            #expect(try await sink.waitForMessages(1).map(\.to) == [["known@example.com"]])
            try await Task.sleep(for: .milliseconds(200))
            #expect(sink.received.count == 1)
            #expect(try await MailOutbox(executor: database.executor).list(limit: 10).count == 1)
        }
    }

    @Test func aCodeIsSingleUseAndExpiresAfterAnHourAndUsingOneVoidsTheEarlierOnes() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        let clock = TestWallClock(Date())
        try await withTestApp(clock: clock.clock, configure: Self.mailing(to: sink)) { client, _ in
            try await client.signUp("twice")
            for _ in 0..<2 { try await client.sendForm(.post, "/auth/forgot-password", "email=twice@example.com") }
            let mails = try await sink.waitForMessages(2)
            try #require(mails.count == 2, "\(mails.count) of 2 mails arrived")
            let first = try Self.code(from: mails[0], path: "reset-password")
            let second = try Self.code(from: mails[1], path: "reset-password")
            #expect(first != second)
            let body = { (code: String) in "code=\(code)&password=fresh-pass-1&passwordConfirmation=fresh-pass-1" }
            SuiteLog.noteSecret("fresh-pass-1")
            #expect(try await client.sendForm(.post, "/auth/reset-password", body(second)).status == .ok)
            #expect(try await client.sendForm(.post, "/auth/reset-password", body(first)).status == .badRequest)

            try await client.sendForm(.post, "/auth/forgot-password", "email=twice@example.com")
            let late = try Self.code(from: try #require(try await sink.waitForMessages(3).dropFirst(2).first), path: "reset-password")
            clock.advance(by: 3601)
            #expect(try await client.sendForm(.post, "/auth/reset-password", body(late)).status == .badRequest)
        }
    }

    @Test func resetRefusalsAreStrapisFormErrorsInStrapisOrder() async throws {
        try await withTestApp { client, _ in
            for (form, id) in [
                ("code=x&password=secret1", "Auth.form.error.params.provide"),
                ("password=secret1&passwordConfirmation=secret1", "Auth.form.error.params.provide"),
                ("code=x&password=secret1&passwordConfirmation=secret2", "Auth.form.error.password.matching"),
                ("code=x&password=abc&passwordConfirmation=abc", "Auth.form.error.password.format"),
                ("code=x&password=secret1&passwordConfirmation=secret1", "Auth.form.error.code.provide"),
            ] {
                let response = try await client.sendForm(.post, "/auth/reset-password", form)
                #expect(response.status == .badRequest, "\(form)")
                #expect(response.json?["data"]?[0]?["messages"]?[0]?["id"] == .string(id), "\(form)")
            }
            for (form, id) in [("", "Auth.form.error.email.provide"), ("email=not-an-address", "Auth.form.error.email.format")] {
                let response = try await client.sendForm(.post, "/auth/forgot-password", form)
                #expect(response.status == .badRequest)
                #expect(response.json?["data"]?[0]?["messages"]?[0]?["id"] == .string(id))
            }
        }
    }

    @Test func mailsAreLimitedPerAddressAskedAboutAndPerClient() async throws {
        try await withTestApp { client, _ in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<4 { statuses.append(try await client.sendForm(.post, "/auth/forgot-password", "email=target@example.com").status) }
            #expect(statuses == [.ok, .ok, .ok, .tooManyRequests])
            statuses = []
            for index in 0..<8 { statuses.append(try await client.sendForm(.post, "/auth/forgot-password", "email=other\(index)@example.com").status) }
            // Ten per client and hour, the refused one above included.
            #expect(statuses == [.ok, .ok, .ok, .ok, .ok, .ok, .tooManyRequests, .tooManyRequests])
        }
    }

    @Test func withoutSMTPTheMailIsHeldInTheOutboxAndWrittenToTheLog() async throws {
        let recorder = LogRecorder()
        try await withTestApp(logger: recorder.logger()) { client, database in
            try await client.signUp("offline")
            #expect(try await client.sendForm(.post, "/auth/forgot-password", "email=offline@example.com").status == .ok)
            let held = try await MailOutbox(executor: database.executor).list(limit: 10)
            #expect(held.map(\.status) == [.held])
            #expect(held.first?.body.contains("/account/reset-password?code=") == true)
            let record = try #require(recorder.records.first { $0.message.contains("mail not sent") })
            #expect(record.level == .warning)
            #expect(record.metadata["to"] == "offline@example.com")
            #expect("\(record.metadata["body"] ?? "")".contains("/account/reset-password?code="))
        }
    }

    @Test func confirmationCanBeRequiredAndTheMailedLinkConfirms() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        try await withTestApp(configure: {
            Self.mailing(to: sink)(&$0)
            $0.accounts.emailConfirmationRequired = true
        }) { client, _ in
            let signUp = try await client.sendForm(.post, "/auth/local/register", "username=careful&email=careful@example.com&password=password1")
            #expect(signUp.status == .ok)
            #expect(signUp.json?["jwt"] == nil)
            #expect(signUp.json?["user"]?["confirmed"] == .bool(false))
            let refused = try await client.sendForm(.post, "/auth/local", "identifier=careful&password=password1")
            #expect(refused.json?["data"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.confirmed"))

            let code = try Self.code(from: try #require(try await sink.waitForMessages(1).first), path: "/auth/email-confirmation")
            let confirmed = try await client.send(.get, "/auth/email-confirmation?confirmation=\(code)")
            #expect(confirmed.status == .found)
            #expect(confirmed.headers[.location] == "/account?confirmed=1")
            #expect(try await client.send(.get, "/auth/email-confirmation?confirmation=\(code)").status == .badRequest)
            let account = try await client.logIn("careful")
            #expect(try await client.send(.get, "/users/me", headers: account.bearer).json?["confirmed"] == .bool(true))

            // A reset proves the address too: an account that never used its confirmation link can log in after one.
            try await client.sendForm(.post, "/auth/local/register", "username=hasty&email=hasty@example.com&password=password1")
            try await client.sendForm(.post, "/auth/forgot-password", "email=hasty@example.com")
            let reset = try Self.code(from: try #require(try await sink.waitForMessages(3).last), path: "reset-password")
            #expect(try await client.sendForm(.post, "/auth/reset-password", "code=\(reset)&password=hasty-pass-2&passwordConfirmation=hasty-pass-2").status == .ok)
            SuiteLog.noteSecret("hasty-pass-2")
            _ = try await client.logIn("hasty", password: "hasty-pass-2")

            // Asking again for a confirmed address answers the same, and sends nothing.
            let again = try await client.sendForm(.post, "/auth/send-email-confirmation", "email=careful@example.com")
            #expect(again.json?["email"] == .string("careful@example.com") && again.json?["sent"] == .bool(true))
            try await Task.sleep(for: .milliseconds(200))
            #expect(sink.received.count == 3)
        }
    }

    @Test func aFailedDeliveryIsTriedAgainAndARefusalForGoodEndsIt() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        let clock = TestWallClock(Date())
        try await withTestApp(clock: clock.clock, configure: Self.mailing(to: sink)) { client, database in
            try await client.signUp("patient")
            try await client.signUp("gone")
            let outbox = MailOutbox(executor: database.executor)
            sink.refuseNext(1, with: "451 4.3.0 try again later")
            try await client.sendForm(.post, "/auth/forgot-password", "email=patient@example.com")
            try await Self.waitUntil { try await outbox.list(limit: 1).first?.lastError != nil }
            let waiting = try #require(try await outbox.list(limit: 1).first)
            #expect(waiting.status == .queued && waiting.attempts == 1 && waiting.lastError?.contains("451") == true)
            #expect(sink.received.isEmpty)
            clock.advance(by: 31)
            #expect(try await sink.waitForMessages(1).count == 1)
            try await Self.waitUntil { try await outbox.list(limit: 1).first?.status == .sent }

            sink.refuseNext(1, with: "550 5.1.1 no such mailbox")
            try await client.sendForm(.post, "/auth/forgot-password", "email=gone@example.com")
            try await Self.waitUntil { try await outbox.list(limit: 1).first?.status == .failed }
            #expect(try await outbox.list(limit: 1).first?.attempts == 1)
        }
    }

    @Test func tokensFromBeforeAResetAreRefusedByEveryProcess() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        try await withTestApp(configure: Self.mailing(to: sink)) { client, database in
            let old = try await client.signUp("roaming")
            let second = try database.secondProcess()
            try await second.test(.router) { secondClient in
                #expect(try await secondClient.send(.get, "/users/me", headers: old.bearer).status == .ok)
                try await client.sendForm(.post, "/auth/forgot-password", "email=roaming@example.com")
                let code = try Self.code(from: try #require(try await sink.waitForMessages(1).first), path: "reset-password")
                let reset = try await client.sendForm(.post, "/auth/reset-password", "code=\(code)&password=roamer-pw-2&passwordConfirmation=roamer-pw-2")
                SuiteLog.noteSecret("roamer-pw-2")
                #expect(reset.status == .ok)
                #expect(try await secondClient.send(.get, "/users/me", headers: old.bearer).status == .unauthorized)
                #expect(try await client.send(.get, "/users/me", headers: old.bearer).status == .unauthorized)
            }
        }
    }

    static func waitUntil(seconds: Double = 30, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("condition not met in \(seconds) s")
    }
}
