import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// The console (`/admin…`): who may open which page, the account actions and their audit entries, the form
/// token, the origin check, the idle timeout and the rate limit. The pages in a browser: Tests/Browser/test_admin_console.py.
@Suite struct AdminConsoleTests {
    typealias Response = (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?)

    static let adminPaths = ["/admin/accounts", "/admin/accounts?q=a&page=2", "/admin/audit", "/admin/audit?action=account.block"]

    @Test func theGateLetsInModeratorsToTheOverviewAndAdminsEverywhereAndNobodyElse() async throws {
        try await withTestApp { client, database in
            let user = try await client.signUp("plainuser")
            let userCookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("plainuser"))
            let moderator = try await Self.staff(client, database, "moder", role: .moderator)
            let admin = try await Self.staff(client, database, "boss", role: .admin)
            let accountPage = "/admin/accounts/\(user.id)"
            let every = ["/admin"] + Self.adminPaths + [accountPage]

            for path in every {
                #expect(try await client.page(path).status == .notFound, "anonymous \(path)")
                let refused = try await client.page(path, cookie: userCookie)
                #expect(refused.status == .notFound, "user \(path)")
                #expect(refused.body.contains("페이지를 찾을 수 없어요"), "the site's ordinary 404 page")
                #expect(try await client.page(path, cookie: admin.cookie).status == .ok, "admin \(path)")
            }
            #expect(try await client.page("/admin", cookie: moderator.cookie).status == .ok)
            for path in Self.adminPaths + [accountPage] {
                #expect(try await client.page(path, cookie: moderator.cookie).status == .notFound, "moderator \(path)")
            }
            // The console is the web session's: an admin's Bearer token does not open it.
            let token = try await client.logIn("boss")
            for path in every {
                let response = try await client.send(.get, path, headers: token.bearer)
                #expect(response.status == .notFound, "bearer \(path)")
            }
            // Writes are refused the same way (and nothing is written).
            let csrf = ConsoleWriteGuard.formToken(sessionToken: Self.token(userCookie))
            let post = try await Self.post(client, "\(accountPage)/sign-out", "csrf=\(csrf)", cookie: userCookie)
            #expect(post.status == .notFound)
            #expect(try await Self.auditCount(database) == 2, "only the two staff accounts' creation")
        }
    }

    @Test func aBlockedAdminIsRefusedEverywhere() async throws {
        try await withTestApp { client, database in
            let admin = try await Self.staff(client, database, "fallen", role: .admin)
            let other = try await Self.staff(client, database, "keeper", role: .admin)
            let blocked = try await client.send(.get, "/admin/accounts/\(admin.id)", headers: [.cookie: other.cookie])
            #expect(blocked.status == .ok)
            _ = try await AccountAdministration(database: database, passwordHashCost: 4).setBlocked("fallen", true, reason: "test", by: .commandLine())
            for path in ["/admin"] + Self.adminPaths {
                #expect(try await client.page(path, cookie: admin.cookie).status == .notFound, "\(path)")
            }
            // Not even a fresh log-in opens it: the log-in is refused.
            #expect(try await client.logInOnWeb("fallen").status == .badRequest)
        }
    }

    @Test func eachActionWritesExactlyOneAuditEntryAndComesBackWithAMessage() async throws {
        try await withTestApp { client, database in
            let target = try await client.signUp("target")
            let admin = try await Self.staff(client, database, "actor", role: .admin)
            let csrf = try await Self.formToken(client, admin.cookie, account: target.id)
            let page = "/admin/accounts/\(target.id)"
            let steps: [(path: String, form: String, action: String, done: String)] = [
                ("block", "reason=spam+again", "account.block", "blocked"),
                ("unblock", "", "account.unblock", "unblocked"),
                ("sign-out", "", "account.sign-out-everywhere", "signed-out"),
                ("send-reset", "", "account.send-password-reset", "reset-sent"),
                ("role", "role=moderator", "account.role", "role"),
            ]
            for step in steps {
                let before = try await Self.auditCount(database)
                let response = try await Self.post(client, "\(page)/\(step.path)", "csrf=\(csrf)&\(step.form)", cookie: admin.cookie)
                #expect(response.status == .seeOther, "\(step.path)")
                #expect(response.headers[.location] == "\(page)?done=\(step.done)")
                #expect(try await Self.auditCount(database) == before + 1, "\(step.path)")
                let last = try #require(try await AuditTrail(executor: database.executor, retentionDays: nil).list(AuditFilter(limit: 1)).first)
                #expect(last.action == step.action)
                #expect(last.target == "account:\(target.id)")
                #expect(last.actor == "actor")
                #expect(last.actorAccountID == admin.id)
                #expect(last.requestID?.isEmpty == false, "the request id is recorded")
            }
            let shown = try await client.page("\(page)?done=role", cookie: admin.cookie)
            #expect(shown.body.contains("역할을 바꿨어요."))
            #expect(shown.body.contains(#"id="account-role">모더레이터"#))

            // Deleting asks for the acting admin's password; a wrong one deletes nothing and writes nothing.
            let before = try await Self.auditCount(database)
            let wrong = try await Self.post(client, "\(page)/delete", "csrf=\(csrf)&password=nope12345", cookie: admin.cookie)
            #expect(wrong.headers[.location] == "\(page)?error=password")
            #expect(try await Self.auditCount(database) == before)
            let deleted = try await Self.post(client, "\(page)/delete", "csrf=\(csrf)&password=password1", cookie: admin.cookie)
            #expect(deleted.headers[.location] == "/admin/accounts?done=deleted")
            #expect(try await Self.auditCount(database) == before + 1)
            #expect(try await client.page(page, cookie: admin.cookie).status == .notFound)
            let entry = try #require(try await AuditTrail(executor: database.executor, retentionDays: nil).list(AuditFilter(action: "account.delete")).first)
            #expect(entry.target == "account:\(target.id)")

            // The audit page shows the entries, filtered.
            let audit = try await client.page("/admin/audit?target=account:\(target.id)", cookie: admin.cookie)
            #expect(audit.status == .ok)
            for action in ["account.block", "account.unblock", "account.sign-out-everywhere", "account.role", "account.delete"] {
                #expect(audit.body.contains(action), "\(action) on the audit page")
            }
            #expect(audit.body.contains("spam again"), "the block's reason among the changes")
        }
    }

    @Test func anAdminCannotBlockDemoteOrDeleteThemselves() async throws {
        try await withTestApp { client, database in
            let admin = try await Self.staff(client, database, "selfish", role: .admin)
            let csrf = try await Self.formToken(client, admin.cookie, account: admin.id)
            let before = try await Self.auditCount(database)
            for (path, form) in [("block", "reason=x"), ("role", "role=user"), ("delete", "password=password1")] {
                let response = try await Self.post(client, "/admin/accounts/\(admin.id)/\(path)", "csrf=\(csrf)&\(form)", cookie: admin.cookie)
                #expect(response.headers[.location] == "/admin/accounts/\(admin.id)?error=self", "\(path)")
            }
            #expect(try await Self.auditCount(database) == before)
        }
    }

    @Test func writesNeedTheSessionsFormTokenAndThisSitesOrigin() async throws {
        try await withTestApp { client, database in
            let target = try await client.signUp("victim")
            let admin = try await Self.staff(client, database, "guard", role: .admin)
            let other = try await Self.staff(client, database, "other", role: .admin)
            let path = "/admin/accounts/\(target.id)/sign-out"
            let before = try await Self.auditCount(database)
            for form in ["", "csrf=", "csrf=00", "csrf=\(ConsoleWriteGuard.formToken(sessionToken: Self.token(other.cookie)))"] {
                let refused = try await Self.post(client, path, form, cookie: admin.cookie)
                #expect(refused.status == .forbidden, "\(form)")
            }
            // The right token from another site: the site-wide origin check refuses it first.
            let csrf = ConsoleWriteGuard.formToken(sessionToken: Self.token(admin.cookie))
            let crossSite = try await Self.post(client, path, "csrf=\(csrf)", cookie: admin.cookie, origin: "https://evil.example")
            #expect(crossSite.status == .forbidden)
            let noOrigin = try await Self.post(client, path, "csrf=\(csrf)", cookie: admin.cookie, origin: nil)
            #expect(noOrigin.status == .forbidden)
            #expect(try await Self.auditCount(database) == before)
            #expect(try await Self.post(client, path, "csrf=\(csrf)", cookie: admin.cookie).status == .seeOther)
            #expect(try await Self.auditCount(database) == before + 1)
        }
    }

    @Test func consoleSessionsEndAfterThirtyMinutesIdle() async throws {
        let clock = TestWallClock()
        try await withTestApp(clock: clock.clock) { client, database in
            let admin = try await Self.staff(client, database, "sleepy", role: .admin)
            clock.advance(by: 29 * 60)
            #expect(try await client.page("/admin/audit", cookie: admin.cookie).status == .ok, "29 minutes is not idle")
            clock.advance(by: 29 * 60)
            #expect(try await client.page("/admin", cookie: admin.cookie).status == .ok, "the last request counts as activity")
            clock.advance(by: 31 * 60)
            let timedOut = try await client.page("/admin/audit?action=account.role", cookie: admin.cookie)
            #expect(timedOut.status == .seeOther)
            #expect(timedOut.headers[.location] == "/account/login?next=/admin/audit%3Faction%3Daccount.role")
            #expect(timedOut.headers[.setCookie]?.contains("Max-Age=0") == true)
            // The session has ended everywhere, not just in the console.
            let session = try await client.send(.get, "/web/session", headers: [.cookie: admin.cookie])
            #expect(session.json?["user"] == .null)

            // A user idle as long is not signed out by asking for /admin: it is just a 404.
            _ = try await client.signUp("idleuser")
            let user = try WebSessionTests.cookie(from: try await client.logInOnWeb("idleuser"))
            clock.advance(by: 31 * 60)
            #expect(try await client.page("/admin", cookie: user).status == .notFound)
            #expect(try await client.send(.get, "/web/session", headers: [.cookie: user]).json?["user"]?["username"]?.string == "idleuser")
        }
    }

    @Test func consoleWritesAreRateLimitedPerAdmin() async throws {
        try await withTestApp { client, database in
            let target = try await client.signUp("limited")
            let admin = try await Self.staff(client, database, "busy", role: .admin)
            let csrf = ConsoleWriteGuard.formToken(sessionToken: Self.token(admin.cookie))
            let path = "/admin/accounts/\(target.id)/role"
            for number in 1...ConsoleWriteGuard.writesPerWindow {
                let response = try await Self.post(client, path, "csrf=\(csrf)&role=user", cookie: admin.cookie)
                #expect(response.status == .seeOther, "write \(number)")
            }
            let refused = try await Self.post(client, path, "csrf=\(csrf)&role=moderator", cookie: admin.cookie)
            #expect(refused.status == .tooManyRequests)
            #expect(try await AccountAdministration(database: database, passwordHashCost: 4).find("limited").role == .user, "nothing changed")
            // Another admin has a window of their own.
            let other = try await Self.staff(client, database, "fresh", role: .admin)
            let otherToken = ConsoleWriteGuard.formToken(sessionToken: Self.token(other.cookie))
            #expect(try await Self.post(client, path, "csrf=\(otherToken)&role=moderator", cookie: other.cookie).status == .seeOther)
        }
    }

    @Test func theWebLogInOfABlockedAccountCarriesTheReasonAndTheAPIsBodyDoesNot() async throws {
        try await withTestApp { client, database in
            _ = try await client.signUp("spammer")
            _ = try await AccountAdministration(database: database, passwordHashCost: 4).setBlocked("spammer", true, reason: "광고 글 반복", by: .commandLine())
            let web = try await client.logInOnWeb("spammer")
            #expect(web.status == .badRequest)
            #expect(web.json?["reason"]?.string == "광고 글 반복")
            #expect(web.json?["message"]?[0]?["messages"]?[0]?["id"]?.string == "Auth.form.error.blocked")
            let api = try await client.sendForm(.post, "/auth/local", "identifier=spammer&password=password1")
            #expect(api.status == .badRequest)
            #expect(api.json?["reason"] == nil, "the apps' contract is unchanged")
            // A wrong password hears nothing of the block.
            let wrong = try await client.logInOnWeb("spammer", password: "wrong-password")
            #expect(wrong.json?["reason"] == nil)
        }
    }

    @Test func theAccountsListSearchesByNameOrEmailFiftyAPage() async throws {
        try await withTestApp { client, database in
            let administration = AccountAdministration(database: database, passwordHashCost: 4)
            for number in 1...55 {
                _ = try await administration.create(username: "member\(number)", email: "m\(number)@example.com", password: "password1", by: .commandLine())
            }
            _ = try await administration.create(username: "odd_one", email: "zz%@example.com", password: "password1", by: .commandLine())
            let admin = try await Self.staff(client, database, "finder", role: .admin)
            let first = try await client.page("/admin/accounts?q=member", cookie: admin.cookie)
            #expect(first.body.contains("모두 55개 중 1–50"))
            #expect(first.body.contains(#"href="/admin/accounts?q=member&amp;page=2""#))
            // The search box shows the query back: a quote before a combining mark stays inside the attribute.
            let marked = try await client.page("/admin/accounts?q=%22%CC%81%20autofocus%20onfocus%3Dalert(1)", cookie: admin.cookie)
            #expect(marked.body.contains(#"value="&quot;\#u{301} autofocus onfocus=alert(1)""#))
            let nobody = try await client.page("/admin/accounts?q=nobody", cookie: admin.cookie)
            #expect(nobody.body.contains("찾은 계정이 없어요.") && !nobody.body.contains("모두 0개 중"))
            let second = try await client.page("/admin/accounts?q=member&page=2", cookie: admin.cookie)
            #expect(second.body.contains("모두 55개 중 51–55"))
            #expect(try await administration.search("M12@EXAMPLE").total == 1, "email, any case")
            #expect(try await administration.search("MEMBER5").total == 7, "member5 and member50…55, any case")
            #expect(try await administration.search("odd_").total == 1, "LIKE's characters are themselves")
            #expect(try await administration.search("zz%").total == 1)
            #expect(try await administration.search("ember").total == 0, "the start of a name, by index")
        }
    }

    @Test func theOverviewShowsCountsChartsAndTheDatabase() async throws {
        try await withTestApp { client, database in
            _ = try await client.signUp("writer")
            _ = try await client.createTodo("admin overview todo")
            let moderator = try await Self.staff(client, database, "watcher", role: .moderator)
            let page = try await client.page("/admin", cookie: moderator.cookie)
            #expect(page.status == .ok)
            #expect(page.body.contains(#"<dt>계정</dt><dd>2</dd>"#))
            #expect(page.body.contains(#"<dt>할 일</dt><dd>1</dd>"#))
            #expect(page.body.contains(#"<svg class="bar-chart""#))
            #expect(page.body.contains(#"id="last-backup">없음"#))
            #expect(!page.body.contains(#"id="database-size">알 수 없음"#))
            #expect(page.body.contains(#"id="console-link" aria-current="page">관리"#), "the header's link to the console")
            #expect(!page.body.contains(#"href="/admin/accounts""#), "a moderator is not offered the accounts")
        }
    }

    @Test func onlyStaffSeeTheConsoleLink() async throws {
        try await withTestApp { client, database in
            _ = try await client.signUp("nobody")
            let user = try WebSessionTests.cookie(from: try await client.logInOnWeb("nobody"))
            #expect(!(try await client.page("/", cookie: user).body.contains("console-link")))
            let admin = try await Self.staff(client, database, "somebody", role: .admin)
            #expect(try await client.page("/", cookie: admin.cookie).body.contains(#"<a href="/admin" id="console-link">관리</a>"#))
        }
    }

    // MARK: - Helpers

    struct Staff {
        let id: Int
        let cookie: String
    }

    /// An account of `role` made as `sprout account create --role` makes it, signed in on the web.
    static func staff(_ client: some TestClientProtocol, _ database: SproutDatabase, _ name: String, role: AccountRole) async throws -> Staff {
        let created = try await AccountAdministration(database: database, passwordHashCost: 4)
            .create(username: name, email: "\(name)@example.com", password: "password1", role: role, by: .commandLine())
        let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb(name))
        return Staff(id: created.account.id, cookie: cookie)
    }

    static func token(_ cookie: String) -> String {
        String(cookie.split(separator: "=", maxSplits: 1).last ?? "")
    }

    /// The form token the account's page carries.
    static func formToken(_ client: some TestClientProtocol, _ cookie: String, account: Int) async throws -> String {
        let page = try await client.page("/admin/accounts/\(account)", cookie: cookie)
        let match = try #require(page.body.firstMatch(of: #/name="csrf" value="([0-9a-f]+)"/#))
        return String(match.1)
    }

    static func post(
        _ client: some TestClientProtocol, _ path: String, _ form: String, cookie: String, origin: String? = "http://localhost"
    ) async throws -> Response {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: cookie]
        if let origin { headers[.origin] = origin }
        return try await client.send(.post, path, headers: headers, body: form)
    }

    static func auditCount(_ database: SproutDatabase) async throws -> Int {
        try await database.executor.readFirst("SELECT count(*) FROM audit_log", as: SQLInt.self)?.value ?? 0
    }
}

@Suite struct SVGBarChartTests {
    @Test func barsScaleToTheLargestValueAndCarryTheirLabels() {
        let chart = SVGBarChart(title: "가입 <수>", bars: [.init(label: "11/1", value: 0), .init(label: "11/2", value: 4), .init(label: "11/3", value: 2)], id: "c")
        let svg = chart.svg
        #expect(svg.hasPrefix(#"<svg class="bar-chart" viewBox="0 0 600 180" role="img" aria-labelledby="c-title c-desc">"#))
        #expect(svg.contains(#"<title id="c-title">가입 &lt;수&gt;</title>"#), "text is escaped")
        #expect(svg.contains("<desc id=\"c-desc\">11/1부터 11/3까지 3일, 합계 6, 가장 많은 날 11/2 4.</desc>"))
        #expect(svg.components(separatedBy: "<rect ").count - 1 == 3)
        // 600 wide, three slots of 200, bars 150 wide; 180 high less 24 below and 18 above: 138 for the largest.
        #expect(svg.contains(#"<rect class="bar-chart-bar" x="225" y="18" width="150" height="138"><title>11/2: 4</title></rect>"#))
        #expect(svg.contains(#"<rect class="bar-chart-bar" x="425" y="87" width="150" height="69"><title>11/3: 2</title></rect>"#))
        #expect(svg.contains(#"<rect class="bar-chart-bar" x="25" y="156" width="150" height="0"><title>11/1: 0</title></rect>"#))
        #expect(svg.contains(">최대 4</text>"))
        #expect(svg.hasSuffix("</svg>"))
    }

    @Test func noDataIsAnEmptyChartNotADivisionByZero() {
        let empty = SVGBarChart(title: "t", bars: [], id: "e")
        #expect(empty.summary == "자료가 없어요.")
        #expect(!empty.svg.contains("<rect"))
        let zeros = SVGBarChart(title: "t", bars: Array(repeating: .init(label: "d", value: 0), count: 30), id: "z")
        #expect(!zeros.svg.contains("nan") && !zeros.svg.contains("inf"))
        #expect(zeros.maximum == 0)
    }

    @Test func numbersAreShort() {
        #expect(SVGBarChart.number(10) == "10")
        #expect(SVGBarChart.number(7.5) == "7.5")
        #expect(SVGBarChart.number(1.0 / 3) == "0.33")
    }
}
