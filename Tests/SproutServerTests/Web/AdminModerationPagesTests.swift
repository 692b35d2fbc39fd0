import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// The console's moderation and reports pages (`/admin/moderation`, `/admin/reports`) and their writes
/// (`POST /admin/moderation/hide|restore|delete`): who may open them, the audit entries each write leaves, bulk
/// actions, the form token, the password a deletion needs. In a browser: Tests/Browser/test_admin_moderation.py.
@Suite struct AdminModerationPagesTests {
    typealias Console = AdminConsoleTests

    static let pages = ["/admin/moderation", "/admin/moderation?kind=comment&reported=1&hidden=1&author=x&q=y&before=9", "/admin/reports", "/admin/reports?kind=product"]

    @Test func moderatorsAndAdminsMayOpenThePagesAndNobodyElse() async throws {
        try await withTestApp { client, database in
            _ = try await client.signUp("plainuser")
            let user = try WebSessionTests.cookie(from: try await client.logInOnWeb("plainuser"))
            let moderator = try await Console.staff(client, database, "moder", role: .moderator)
            let admin = try await Console.staff(client, database, "boss", role: .admin)
            for path in Self.pages {
                #expect(try await client.page(path).status == .notFound, "anonymous \(path)")
                #expect(try await client.page(path, cookie: user).status == .notFound, "user \(path)")
                #expect(try await client.page(path, cookie: moderator.cookie).status == .ok, "moderator \(path)")
                #expect(try await client.page(path, cookie: admin.cookie).status == .ok, "admin \(path)")
            }
            let menu = try await client.page("/admin", cookie: moderator.cookie).body
            #expect(menu.contains(#"href="/admin/moderation""#) && menu.contains(#"href="/admin/reports""#))
            #expect(menu.contains(#"<a href="/admin/reports">0</a>"#), "the overview's open reports link to the queue")
            // A user's form token does not make a write of theirs reach the console.
            let csrf = ConsoleWriteGuard.formToken(sessionToken: Console.token(user))
            #expect(try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post&id=1", cookie: user).status == .notFound)

            _ = try await AccountAdministration(database: database, passwordHashCost: 4).setBlocked("moder", true, reason: "test", by: .commandLine())
            for path in Self.pages {
                #expect(try await client.page(path, cookie: moderator.cookie).status == .notFound, "blocked moderator \(path)")
            }
        }
    }

    @Test func hideRestoreAndDeleteWriteOneAuditEntryPerChangedItem() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("author")
            let reader = try await client.signUp("reader")
            let posts = [
                try await client.createPost("광고 하나", as: author), try await client.createPost("광고 둘", as: author),
                try await client.createPost("광고 셋", as: author),
            ]
            let moderator = try await Console.staff(client, database, "moder", role: .moderator)
            let csrf = try await Self.formToken(client, moderator.cookie)
            let ids = posts.map { "id=\($0)" }.joined(separator: "&")
            let back = "back=" + AdminPages<SproutRequestContext>.queryValue("/admin/moderation?kind=post")

            // Bulk hide of three in one POST: three entries, and the page says so.
            let hidden = try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post&\(ids)&\(back)", cookie: moderator.cookie)
            #expect(hidden.status == .seeOther)
            #expect(hidden.headers[.location] == "/admin/moderation?kind=post&done=hidden&count=3")
            #expect(try await Self.audit(database, "content.hide") == posts.map { "post:\($0)" }.sorted())
            let entry = try #require(try await AuditTrail(executor: database.executor, retentionDays: nil).list(AuditFilter(limit: 1)).first)
            #expect(entry.actor == "moder" && entry.actorAccountID == moderator.id && entry.requestID?.isEmpty == false)
            let page = try await client.page("/admin/moderation?kind=post&done=hidden&count=3", cookie: moderator.cookie).body
            #expect(page.contains("3개 숨김 처리했어요"))
            #expect(page.contains(#"id="hidden-badge-\#(posts[0])""#))
            #expect(page.contains(#"href="/community/posts/\#(posts[0])""#))

            // Hidden: another user gets 404; the author still sees it.
            #expect(try await client.send(.get, "/posts/\(posts[0])", headers: reader.bearer).status == .notFound)
            #expect(try await client.send(.get, "/posts/\(posts[0])", headers: author.bearer).status == .ok)

            // Hiding again changes nothing and writes nothing.
            let again = try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post&id=\(posts[0])", cookie: moderator.cookie)
            #expect(again.headers[.location] == "/admin/moderation?done=hidden&count=0")
            #expect(try await Self.audit(database, "content.hide").count == 3)

            let restored = try await Console.post(client, "/admin/moderation/restore", "csrf=\(csrf)&kind=post&id=\(posts[1])", cookie: moderator.cookie)
            #expect(restored.headers[.location] == "/admin/moderation?done=restored&count=1")
            #expect(try await Self.audit(database, "content.restore") == ["post:\(posts[1])"])
            #expect(try await client.send(.get, "/posts/\(posts[1])", headers: reader.bearer).status == .ok)

            // Deleting needs the box ticked and the moderator's password; without either nothing is written.
            let before = try await Console.auditCount(database)
            let unconfirmed = try await Console.post(client, "/admin/moderation/delete", "csrf=\(csrf)&kind=post&id=\(posts[2])&password=password1", cookie: moderator.cookie)
            #expect(unconfirmed.headers[.location] == "/admin/moderation?error=confirm")
            let wrong = try await Console.post(client, "/admin/moderation/delete", "csrf=\(csrf)&kind=post&id=\(posts[2])&confirm=1&password=nope12345", cookie: moderator.cookie)
            #expect(wrong.headers[.location] == "/admin/moderation?error=password")
            #expect(try await Console.auditCount(database) == before)
            let deleted = try await Console.post(client, "/admin/moderation/delete", "csrf=\(csrf)&kind=post&id=\(posts[2])&confirm=1&password=password1", cookie: moderator.cookie)
            #expect(deleted.headers[.location] == "/admin/moderation?done=deleted&count=1")
            #expect(try await Self.audit(database, "content.delete") == ["post:\(posts[2])"])
            #expect(try await client.send(.get, "/posts/\(posts[2])", headers: author.bearer).status == .notFound)
        }
    }

    @Test func writesNeedTheFormTokenAndSaneForms() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("author")
            let post = try await client.createPost("글", as: author)
            let moderator = try await Console.staff(client, database, "moder", role: .moderator)
            let before = try await Console.auditCount(database)
            for form in ["kind=post&id=\(post)", "csrf=00&kind=post&id=\(post)"] {
                #expect(try await Console.post(client, "/admin/moderation/hide", form, cookie: moderator.cookie).status == .forbidden, "\(form)")
            }
            let csrf = ConsoleWriteGuard.formToken(sessionToken: Console.token(moderator.cookie))
            let noOrigin = try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post&id=\(post)", cookie: moderator.cookie, origin: nil)
            #expect(noOrigin.status == .forbidden, "the site-wide origin check")
            #expect(try await Console.auditCount(database) == before)

            #expect(try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=poem&id=\(post)", cookie: moderator.cookie).headers[.location] == "/admin/moderation?error=kind")
            #expect(try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post", cookie: moderator.cookie).headers[.location] == "/admin/moderation?error=none")
            let tooMany = (1...1_001).map { "id=\($0)" }.joined(separator: "&")
            #expect(try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post&\(tooMany)", cookie: moderator.cookie).headers[.location] == "/admin/moderation?error=too-many")
            #expect(try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post&id=x", cookie: moderator.cookie).status == .badRequest)
            #expect(try await Console.post(client, "/admin/moderation/erase", "csrf=\(csrf)&kind=post&id=\(post)", cookie: moderator.cookie).status == .notFound)
            // `back` only ever leads to the console's own pages.
            let elsewhere = try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post&id=\(post)&back=https://evil.example", cookie: moderator.cookie)
            #expect(elsewhere.headers[.location] == "/admin/moderation?done=hidden&count=1")
            #expect(try await Console.auditCount(database) == before + 1)
        }
    }

    @Test func theReportsQueueShowsReportedItemsAndActingOnOneResolvesIt() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("author")
            let reporter = try await client.signUp("reporter")
            let post = try await client.createPost("신고될 글", as: author)
            let report = try await client.send(.post, "/api/reports", headers: [.authorization: "Bearer \(reporter.token)", .contentType: "application/json"],
                                               body: #"{"kind":"post","id":\#(post),"reason":"광고예요"}"#)
            #expect(report.status == .created)
            let moderator = try await Console.staff(client, database, "moder", role: .moderator)
            let queue = try await client.page("/admin/reports", cookie: moderator.cookie).body
            #expect(queue.contains(#"id="report-post-\#(post)""#))
            #expect(queue.contains("광고예요") && queue.contains("신고될 글"))
            #expect(queue.contains(#"id="console-open-reports">1<"#), "the menu's count of open items")
            #expect(queue.contains(#"href="/admin/moderation?kind=post&amp;before=\#(post + 1)#item-\#(post)""#))

            let csrf = try await Self.formToken(client, moderator.cookie, page: "/admin/reports")
            let hidden = try await Console.post(client, "/admin/moderation/hide", "csrf=\(csrf)&kind=post&id=\(post)&back=/admin/reports", cookie: moderator.cookie)
            #expect(hidden.headers[.location] == "/admin/reports?done=hidden&count=1")
            #expect(try await Self.audit(database, "content.hide") == ["post:\(post)"])
            let after = try await client.page("/admin/reports?done=hidden&count=1", cookie: moderator.cookie).body
            #expect(after.contains("1개 숨김 처리했어요"))
            #expect(after.contains(#"id="reports-empty""#), "the report was resolved")
            #expect(try await client.send(.get, "/posts/\(post)", headers: reporter.bearer).status == .notFound)
        }
    }

    /// A report of an item its author deleted has no item to act on; it, and an unfounded one, is closed by
    /// "신고 닫기", which leaves the item as it is and writes one `report.dismiss` entry per item.
    @Test func reportsAreClosedWithoutActingEvenWhenTheItemIsGone() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("author")
            let reporter = try await client.signUp("reporter")
            let fine = try await client.createPost("멀쩡한 글", as: author)
            let gone = try await client.createPost("곧 지울 글", as: author)
            for post in [fine, gone] {
                let report = try await client.send(.post, "/api/reports", headers: [.authorization: "Bearer \(reporter.token)", .contentType: "application/json"],
                                                   body: #"{"kind":"post","id":\#(post),"reason":"이상해요"}"#)
                #expect(report.status == .created)
            }
            #expect(try await client.send(.delete, "/posts/\(gone)", headers: author.bearer).status == .ok)
            let moderator = try await Console.staff(client, database, "moder", role: .moderator)
            let queue = try await client.page("/admin/reports", cookie: moderator.cookie).body
            #expect(queue.contains(#"id="dismiss-post-\#(gone)""#) && queue.contains(#"id="dismiss-post-\#(fine)""#))
            #expect(!queue.contains(#"id="hide-post-\#(gone)""#), "nothing to hide")

            let csrf = try await Self.formToken(client, moderator.cookie, page: "/admin/reports")
            let closed = try await Console.post(client, "/admin/moderation/dismiss", "csrf=\(csrf)&kind=post&id=\(gone)&id=\(fine)&back=/admin/reports", cookie: moderator.cookie)
            #expect(closed.headers[.location] == "/admin/reports?done=dismissed&count=2")
            #expect(try await Self.audit(database, "report.dismiss").sorted() == ["post:\(fine)", "post:\(gone)"].sorted())
            let after = try await client.page("/admin/reports?done=dismissed&count=2", cookie: moderator.cookie).body
            #expect(after.contains("2개 항목의 신고를 닫았어요") && after.contains(#"id="reports-empty""#))
            #expect(try await client.send(.get, "/posts/\(fine)", headers: reporter.bearer).status == .ok, "the item is untouched")
            let again = try await Console.post(client, "/admin/moderation/dismiss", "csrf=\(csrf)&kind=post&id=\(fine)&back=/admin/reports", cookie: moderator.cookie)
            #expect(again.headers[.location] == "/admin/reports?done=dismissed&count=0")
            #expect(try await Self.audit(database, "report.dismiss").count == 2, "nothing open, nothing recorded")
        }
    }

    @Test func commentsAndBoardPostsLinkToWhereTheyAreSeen() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("author")
            let post = try await client.createPost("글", as: author)
            let comment = try await client.createComment("댓글", on: post, as: author)
            let boardPost = try await client.writePost("제목", "내용", as: author)["postId"]!.int!
            let moderator = try await Console.staff(client, database, "moder", role: .moderator)
            let comments = try await client.page("/admin/moderation?kind=comment", cookie: moderator.cookie).body
            #expect(comments.contains(#"href="/community/posts/\#(post)#comments-title""#))
            #expect(comments.contains(#"id="item-\#(comment)""#))
            let board = try await client.page("/admin/moderation?kind=board-post", cookie: moderator.cookie).body
            #expect(board.contains(#"href="/board/\#(SeedBoard.free)/posts/\#(boardPost)""#))
        }
    }

    // MARK: - Helpers

    static func formToken(_ client: some TestClientProtocol, _ cookie: String, page: String = "/admin/moderation") async throws -> String {
        let body = try await client.page(page, cookie: cookie).body
        let match = try #require(body.firstMatch(of: #/name="csrf" value="([0-9a-f]+)"/#))
        return String(match.1)
    }

    /// The targets of the audit entries with `action`, sorted.
    static func audit(_ database: SproutDatabase, _ action: String) async throws -> [String] {
        try await database.executor.read("SELECT target FROM audit_log WHERE action = \(bind: action)", as: SQLTextValue.self).map(\.value).sorted()
    }
}
