import Foundation
import Testing
@testable import SproutServer

/// A fresh install without SMTP: a reset asked for in the running server is held in the outbox and logged, and
/// `sprout mail list|show` hands the operator the link; `sprout account delete` asks for `--yes`.
@Suite struct MailAndDeletionCommandLineTests {
    @Test func withoutSMTPTheOperatorFindsTheResetLinkInTheLogAndTheOutbox() async throws {
        let data = SproutProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        #expect(try await SproutProcess.run(["seed", "--data-dir", data]).status == 0)
        let port = try SproutProcess.freePort()
        let server = try SproutProcess(["serve", "--port", "\(port)", "--data-dir", data])
        try await server.waitForOutput(containing: "in a browser")
        let body = "email=demo1%40example.com"
        let answer = try await ServiceOperationsTests.exchange(port: port, """
            POST /auth/forgot-password HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n\
            Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)
            """)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        let logged = server.standardOutput + server.standardError
        #expect(logged.contains("mail not sent") && logged.contains("/account/reset-password?code="), "\(logged)")
        server.process.terminate()
        _ = try await server.exit(within: .seconds(20))

        let list = try await SproutProcess.run(["mail", "list", "--data-dir", data])
        #expect(list.status == 0)
        let line = try #require(list.output.split(separator: "\n").first.map(String.init), "\(list.errors)")
        #expect(line.contains("\theld\t") && line.contains("password-reset") && line.contains("demo1@example.com"), "\(line)")
        let id = try #require(line.split(separator: "\t").first.map(String.init))
        let shown = try await SproutProcess.run(["mail", "show", id, "--data-dir", data])
        #expect(shown.status == 0 && shown.output.contains("/account/reset-password?code="), "\(shown.output)")
        #expect(try await SproutProcess.run(["mail", "list", "--status", "lost", "--data-dir", data]).status != 0)

        let unconfirmed = try await SproutProcess.run(["account", "delete", "demo1", "--data-dir", data])
        #expect(unconfirmed.status != 0 && unconfirmed.output.contains("--yes"))
        #expect(try await SproutProcess.run(["account", "show", "demo1", "--data-dir", data]).status == 0)
        let deleted = try await SproutProcess.run(["account", "delete", "demo1", "--yes", "--data-dir", data])
        #expect(deleted.status == 0, "\(deleted.errors)")
        #expect(try await SproutProcess.run(["account", "show", "demo1", "--data-dir", data]).status != 0)
        // The mails to the account went with it.
        #expect(try await SproutProcess.run(["mail", "list", "--data-dir", data]).output.contains("No mails."))
    }
}
