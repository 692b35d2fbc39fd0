import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// The console's backups, boards and vendors pages: admins only, each write through the administration code with
/// exactly one audit entry, the form token required, a backup run from the page and downloaded by name.
@Suite struct AdminOperationsPagesTests {
    static let paths = ["/admin/backups", "/admin/boards", "/admin/vendors"]

    private func csrf(_ client: some TestClientProtocol, _ cookie: String, page: String = "/admin/boards") async throws -> String {
        let body = try await client.page(page, cookie: cookie).body
        return String(try #require(body.firstMatch(of: #/name="csrf" value="([0-9a-f]+)"/#)).1)
    }

    @Test func onlyAdminsOpenThemAndNobodyElseLearnsTheyExist() async throws {
        try await withTestApp { client, database in
            try await client.signUp("plain")
            let userCookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("plain"))
            let moderator = try await AdminConsoleTests.staff(client, database, "moder", role: .moderator)
            let admin = try await AdminConsoleTests.staff(client, database, "boss", role: .admin)
            for path in Self.paths {
                #expect(try await client.page(path).status == .notFound, "anonymous \(path)")
                #expect(try await client.page(path, cookie: userCookie).status == .notFound, "user \(path)")
                #expect(try await client.page(path, cookie: moderator.cookie).status == .notFound, "moderator \(path)")
                #expect(try await client.page(path, cookie: admin.cookie).status == .ok, "admin \(path)")
            }
            let moderatorForm = "csrf=\(ConsoleWriteGuard.formToken(sessionToken: AdminConsoleTests.token(moderator.cookie)))&name=x"
            #expect(try await AdminConsoleTests.post(client, "/admin/boards", moderatorForm, cookie: moderator.cookie).status == .notFound)
            #expect(try await AdminConsoleTests.post(client, "/admin/backups", moderatorForm, cookie: moderator.cookie).status == .notFound)
            #expect(try await AdminConsoleTests.auditCount(database) == 2, "only the staff accounts' creation")
        }
    }

    @Test func boardAndVendorActionsEachWriteOneEntryAndNeedTheFormToken() async throws {
        try await withTestApp { client, database in
            let admin = try await AdminConsoleTests.staff(client, database, "boss", role: .admin)
            let seller = try await client.makeVendor("seller")
            let csrf = try await csrf(client, admin.cookie)
            let steps: [(path: String, form: String, action: String, back: String)] = [
                ("/admin/boards", "name=%EC%9A%B4%EC%98%81&type=notice&writable=no", "board.create", "/admin/boards?done=board-created"),
                ("/admin/boards/4/rename", "name=%EC%9A%B4%EC%98%81+%EA%B3%B5%EC%A7%80", "board.rename", "/admin/boards?done=board-renamed"),
                ("/admin/boards/4/move", "position=1", "board.move", "/admin/boards?done=board-moved"),
                ("/admin/boards/4/writable", "writable=yes", "board.writable", "/admin/boards?done=board-writable"),
                ("/admin/boards/4/archive", "", "board.archive", "/admin/boards?done=board-archived"),
                ("/admin/boards/4/delete", "", "board.delete", "/admin/boards?done=board-deleted"),
                ("/admin/vendors/\(seller.id)/disable", "", "vendor.disable", "/admin/vendors?done=vendor-disabled"),
                ("/admin/vendors/\(seller.id)/rotate-secret", "", "vendor.rotate-secret", "/admin/vendors?done=vendor-secret"),
                ("/admin/vendors/\(seller.id)/enable", "", "vendor.enable", "/admin/vendors?done=vendor-enabled"),
            ]
            for step in steps {
                let before = try await database.executor.readFirst("SELECT count(*) FROM audit_log WHERE action = \(bind: step.action)", as: SQLInt.self)?.value
                let response = try await AdminConsoleTests.post(client, step.path, "csrf=\(csrf)&\(step.form)", cookie: admin.cookie)
                #expect(response.status == .seeOther && response.headers[.location] == step.back, "\(step.path): \(response.status)")
                let after = try await database.executor.readFirst("SELECT count(*) FROM audit_log WHERE action = \(bind: step.action)", as: SQLInt.self)?.value
                #expect(after == (before ?? 0) + 1, "\(step.path)")
            }
            // The free board has posts: deleting it is refused, and nothing is recorded.
            _ = try await client.writePost("글", "내용", as: seller.account)
            let refused = try await AdminConsoleTests.post(client, "/admin/boards/\(SeedBoard.free)/delete", "csrf=\(csrf)", cookie: admin.cookie)
            #expect(refused.headers[.location] == "/admin/boards?error=board-not-empty")
            #expect(try await database.executor.readFirst("SELECT count(*) FROM audit_log WHERE action = 'board.delete'", as: SQLInt.self)?.value == 1)
            // Without the form token: 403, nothing changes.
            let forged = try await AdminConsoleTests.post(client, "/admin/vendors/\(seller.id)/disable", "", cookie: admin.cookie)
            #expect(forged.status == .forbidden)
            #expect(try await VendorAdministration(database: database, sealer: .forTests).find("seller").disabled == false)
            // Without this site's origin: the site-wide guard refuses it first.
            let crossSite = try await AdminConsoleTests.post(client, "/admin/vendors/\(seller.id)/disable", "csrf=\(csrf)", cookie: admin.cookie, origin: "https://evil.example")
            #expect(crossSite.status == .forbidden)
        }
    }

    @Test func aBackupRunsFromThePageAndItsArchiveDownloadsByNameOnly() async throws {
        let data = NSTemporaryDirectory() + "sprout-console-backup-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await withTestApp(configure: { $0.data.directory = data }) { client, database in
            let admin = try await AdminConsoleTests.staff(client, database, "keeper", role: .admin)
            let csrf = try await csrf(client, admin.cookie, page: "/admin/backups")
            let started = try await AdminConsoleTests.post(client, "/admin/backups", "csrf=\(csrf)", cookie: admin.cookie)
            #expect(started.headers[.location] == "/admin/backups?done=backup-started")
            var page = try await client.page("/admin/backups", cookie: admin.cookie).body
            for _ in 0..<300 where page.contains("data-running") {
                try await Task.sleep(for: .milliseconds(100))
                page = try await client.page("/admin/backups", cookie: admin.cookie).body
            }
            let name = String(try #require(page.firstMatch(of: #/href="/admin/backups/(sprout-backup-[0-9TZ.]+\.tar)"/#)).1)
            let download = try await client.send(.get, "/admin/backups/\(name)", headers: [.cookie: admin.cookie])
            #expect(download.status == .ok && download.headers[.contentType] == "application/x-tar")
            #expect(download.headers[.contentDisposition] == "attachment; filename=\"\(name)\"")
            for path in ["/admin/backups/secrets.key", "/admin/backups/..%2Fsecrets.key", "/admin/backups/sprout.sqlite"] {
                #expect(try await client.page(path, cookie: admin.cookie).status == .notFound, "\(path)")
            }
            #expect(try await client.send(.get, "/admin/backups/\(name)").status == .notFound, "anonymous download")
            #expect(try await database.executor.readFirst("SELECT count(*) FROM audit_log WHERE action = 'backup.create'", as: SQLInt.self)?.value == 1)
        }
    }
}
