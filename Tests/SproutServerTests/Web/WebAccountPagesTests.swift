import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// Pages that depend on who is signed in: the header, the account pages, the Community's pages and the Todos
/// page's owner line. What their scripts do is tested in Tests/Browser.
@Suite struct WebAccountPagesTests {
    typealias Page = WebPagesTests.Page

    @Test func signedOutVisitorsSeeLogInAndSignUpInTheHeader() async throws {
        try await withTestApp { client, _ in
            let page = try await client.page("/todos")
            #expect(page.body.contains(#"id="login-link" href="/account/login?next=/todos""#))
            #expect(page.body.contains(#"id="signup-link" href="/account/signup?next=/todos""#), "sign-up links carry next= too")
            #expect(!page.body.contains("logout-button"))
            #expect(!page.body.contains("data-user-id"))
            #expect(page.body.contains("모두가 함께 쓰는 목록이에요."))
            #expect(page.headers[.cacheControl] == "private, no-cache")
            #expect(page.headers[.vary] == "Cookie")
        }
    }

    @Test(arguments: [
        "/", "/todos", "/diary", "/community", "/community/write", "/community/posts/1", "/account/password",
        "/market", "/market/products/1", "/market/new", "/market/products/1/edit", "/market/vendor", "/account",
        "/account/forgot-password", "/account/reset-password?code=abc",
    ])
    func signedInVisitorsSeeTheirNameAndALogOutButtonOnEveryPage(path: String) async throws {
        try await withTestApp { client, _ in
            let signUp = try await client.send(
                .post, "/web/account", headers: [.contentType: "application/x-www-form-urlencoded"],
                body: "username=<i>o'k&email=escaped@example.com&password=password1"
            )
            let id = try #require(signUp.json?["user"]?["id"]?.int)
            let cookie = try WebSessionTests.cookie(from: signUp)
            let page = try await client.page(path, cookie: cookie)
            #expect(page.status == .ok)
            #expect(page.body.contains(#"data-user-id="\#(id)" data-username="&lt;i&gt;o&#39;k""#))
            #expect(page.body.contains(#"id="logout-button""#))
            #expect(page.body.contains(#"<dialog id="logout-dialog""#))
            #expect(page.body.contains("&lt;i&gt;o&#39;k</a>"))
            #expect(page.body.contains(#"id="signed-in-as" href="/account" title="내 계정""#), "the name leads to the account's page")
            #expect(!page.body.contains("<i>o'k"), "the username is escaped everywhere")
            #expect(!page.body.contains(#"id="login-link""#))
            #expect(page.body.contains("/static/site.js?v="))
        }
    }

    @Test func theTodosPageSaysWhoseListItIs() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("planner")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("planner"))
            let page = try await client.page("/todos", cookie: cookie)
            #expect(page.body.contains("<strong>planner</strong> 님의 할 일 목록이에요."))
            // The whole app on the account's own list: the form to add, and no invitation to sign in.
            for id in ["create-form", "new-title", "create-submit", "delete-dialog"] {
                #expect(page.body.contains(#"id="\#(id)""#), "missing #\(id)")
            }
            #expect(!page.body.contains("data-read-only"))
            #expect(!page.body.contains(#"id="todos-invite""#))
        }
    }

    @Test func aStaleCookieIsJustASignedOutVisitor() async throws {
        try await withTestApp { client, _ in
            let page = try await client.page("/community", cookie: "sprout_session=not-a-session")
            #expect(page.status == .ok)
            #expect(page.body.contains(#"id="sign-in-prompt""#))
        }
    }

    @Test(arguments: ["/community", "/community/write", "/community/posts/7"])
    func signedOutVisitorsToTheCommunitySeeAPromptToLogIn(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .ok)
            #expect(page.body.contains(#"id="sign-in-prompt""#))
            #expect(page.body.contains(#"href="/account/login?next=\#(path)" id="prompt-login""#))
            #expect(!page.body.contains("community.js"), "nothing to run without an account")
            #expect(page.body.contains(#"<a href="/community" aria-current="page">"#))
        }
    }

    @Test func signedInVisitorsGetTheCommunityScreens() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("member")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("member"))
            let feed = try await client.page("/community", cookie: cookie)
            for id in ["feed", "write-link", "refresh", "sort-newest", "sort-oldest", "post-list", "sentinel", "post-row"] {
                #expect(feed.body.contains(#"id="\#(id)""#), "feed is missing #\(id)")
            }
            #expect(feed.body.contains("/static/community.js?v="))
            let post = try await client.page("/community/posts/12", cookie: cookie)
            #expect(post.body.contains(#"data-post-id="12""#))
            for id in ["post-delete", "comment-form", "comment-text", "comment-submit", "delete-dialog"] {
                #expect(post.body.contains(#"id="\#(id)""#), "post page is missing #\(id)")
            }
            let write = try await client.page("/community/write", cookie: cookie)
            #expect(write.body.contains("<h1 id=\"write-title\">새 글</h1>"))
            #expect(!write.body.contains("data-post-id"))
            let edit = try await client.page("/community/write?post=12", cookie: cookie)
            #expect(edit.body.contains("<h1 id=\"write-title\">글 수정</h1>"))
            #expect(edit.body.contains(#"data-post-id="12""#))
        }
    }

    @Test(arguments: ["/community/posts/0", "/community/posts/abc", "/community/posts/-3"])
    func postPagesNeedAPositiveID(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .notFound)
        }
    }

    @Test func accountPagesSendVisitorsWhereTheyBelong() async throws {
        try await withTestApp { client, _ in
            let password = try await client.page("/account/password")
            #expect(password.status == .seeOther)
            #expect(password.headers[.location] == "/account/login?next=/account/password")

            let settings = try await client.page("/account")
            #expect(settings.status == .seeOther)
            #expect(settings.headers[.location] == "/account/login?next=/account")
            // Where an email confirmation link lands: the visitor comes back there after logging in.
            let confirmed = try await client.page("/account?confirmed=1")
            #expect(confirmed.headers[.location] == "/account/login?next=/account%3Fconfirmed%3D1")

            let login = try await client.page("/account/login?next=/community/posts/3")
            #expect(login.status == .ok)
            #expect(login.body.contains(#"data-next="/community/posts/3""#))
            #expect(login.body.contains(#"id="login-submit" disabled"#))
            let signUp = try await client.page("/account/signup")
            #expect(signUp.body.contains(#"data-next="/community""#))
            #expect(signUp.body.contains(#"id="signup-submit" disabled"#))

            try await client.signUp("settled")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("settled"))
            let again = try await client.page("/account/login?next=/todos", cookie: cookie)
            #expect(again.status == .seeOther)
            #expect(again.headers[.location] == "/todos")
            #expect(try await client.page("/account/password", cookie: cookie).status == .ok)
            #expect(try await client.page("/account", cookie: cookie).status == .ok)
        }
    }

    @Test func theAccountPageShowsTheAccountAndWhatItCanDo() async throws {
        try await withTestApp { client, _ in
            let signUp = try await client.send(
                .post, "/web/account", headers: [.contentType: "application/x-www-form-urlencoded"],
                body: "username=<b>me&email=Me.Myself@Example.com&password=password1"
            )
            let page = try await client.page("/account", cookie: try WebSessionTests.cookie(from: signUp))
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "private, no-cache")
            #expect(page.body.contains("<title>내 계정 · Sprout</title>"))
            #expect(page.body.contains(#"<strong id="account-name">&lt;b&gt;me</strong>"#))
            #expect(page.body.contains(#"id="profile-username" name="username" type="text" value="&lt;b&gt;me""#))
            #expect(page.body.contains(#"id="profile-email" name="email" type="email" value="me.myself@example.com""#), "as the server keeps it")
            #expect(page.body.contains(#"id="profile-submit" disabled"#))
            #expect(page.body.contains(#"href="/account/password" id="to-password""#))
            #expect(page.body.contains(#"href="/users/me/export" download id="export-link""#))
            #expect(page.body.contains(#"id="delete-submit" disabled"#))
            for id in ["profile-form", "session-list", "session-row", "sessions-end-all", "sessions-dialog", "delete-form",
                       "delete-password", "account-delete-dialog"] {
                #expect(page.body.contains(#"id="\#(id)""#), "missing #\(id)")
            }
            #expect(!page.body.contains("<b>me"), "the username is escaped everywhere")
            #expect(page.body.contains("/static/account-settings.js?v="))
        }
    }

    @Test func theForgottenPasswordPagesAreForAnyone() async throws {
        try await withTestApp { client, _ in
            let login = try await client.page("/account/login")
            #expect(login.body.contains(#"<a href="/account/forgot-password" id="to-forgot">비밀번호를 잊으셨나요?</a>"#))

            let forgot = try await client.page("/account/forgot-password")
            #expect(forgot.status == .ok)
            #expect(forgot.body.contains(#"id="forgot-email" name="email" type="email""#))
            #expect(forgot.body.contains(#"id="forgot-submit" disabled"#))
            #expect(forgot.body.contains(#"id="forgot-sent" hidden"#))
            #expect(forgot.body.contains("/static/account.js?v="))

            // The mail's link: the code goes to the form as it is (escaped), and is checked only when it is used.
            let reset = try await client.page("/account/reset-password?code=Ab-_9%22x")
            #expect(reset.status == .ok)
            #expect(reset.body.contains(#"<form class="auth-form" id="reset-form" data-code="Ab-_9&quot;x" novalidate>"#))
            #expect(reset.body.contains(#"id="reset-submit" disabled"#))
            #expect(reset.body.contains(#"id="reset-expired" hidden"#))
            #expect(!reset.body.contains(#"id="reset-incomplete""#))

            for cut in ["/account/reset-password", "/account/reset-password?code=", "/account/reset-password?code=%20"] {
                let page = try await client.page(cut)
                #expect(page.status == .ok)
                #expect(page.body.contains(#"id="reset-incomplete""#), "\(cut)")
                #expect(page.body.contains("링크가 완전하지 않아요"))
                #expect(page.body.contains(#"href="/account/forgot-password" id="reset-ask-again""#))
                #expect(!page.body.contains(#"id="reset-form""#), "\(cut)")
            }

            // A signed-in visitor may ask too (who forgot the password but still has a session).
            try await client.signUp("forgetful")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("forgetful"))
            #expect(try await client.page("/account/forgot-password", cookie: cookie).status == .ok)
            #expect(try await client.page("/account/reset-password?code=x", cookie: cookie).status == .ok)
        }
    }

    @Test func theAccountPagesAreBrowserRoutesAndTheAccountAPIIsNot() {
        for path in ["/account", "/account/login", "/account/forgot-password", "/account/reset-password"] {
            #expect(BrowserRoutes.contains(path), "\(path)")
        }
        for path in ["/users/me", "/users/me/sessions", "/users/me/export", "/auth/forgot-password", "/accounts"] {
            #expect(!BrowserRoutes.contains(path), "\(path)")
        }
    }

    /// A log-in link may only lead back into this site.
    @Test(arguments: ["//evil.example", "/\\evil.example", "https://evil.example", "evil", "/ok%0d%0aX: y"])
    func nextMustBeAPathOnThisSite(next: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page("/account/login?next=\(next.formEncoded)")
            #expect(page.body.contains(#"data-next="/community""#), "\(next)")
        }
    }
}

extension TestClientProtocol {
    func page(_ path: String, cookie: String? = nil) async throws -> WebPagesTests.Page {
        let headers: HTTPFields = cookie.map { [.cookie: $0] } ?? [:]
        return try await execute(uri: path, method: .get, headers: headers) { response in
            WebPagesTests.Page(status: response.status, headers: response.headers, body: String(buffer: response.body))
        }
    }
}
