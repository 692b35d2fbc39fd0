import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// The browser's sign-in routes (`/web/session`, `/web/account`): the cookie and its attributes, logout that
/// ends the session on the server, sessions shared by every process on the database, and the same account
/// rules and errors as the Strapi API.
@Suite struct WebSessionTests {
    /// In router tests the request's host is `localhost`, so this is the server's own origin.
    static let ownOrigin: HTTPFields = [.origin: "http://localhost"]

    @Test func logInSetsAnHttpOnlyLaxSessionCookieForThirtyDays() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("cookie")
            let response = try await client.logInOnWeb("cookie")
            #expect(response.status == .ok)
            let setCookie = try #require(response.headers[.setCookie])
            #expect(setCookie.wholeMatch(of: /sprout_session=[A-Za-z0-9_-]{32,}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000/) != nil, "\(setCookie)")
            #expect(response.headers[.cacheControl] == "private, no-store")
            #expect(response.json?["user"]?["id"]?.int == account.id)
            #expect(response.json?["user"]?["username"] == .string("cookie"))
            #expect(response.json?["jwt"] == nil, "the browser gets a cookie, not a token")
        }
    }

    @Test func theCookieIsSecureWhenThePublicURLIsHTTPS() async throws {
        try await withTestApp(configure: { $0.server.publicURL = "https://sprout.example" }) { client, _ in
            try await client.signUp("secure")
            let response = try await client.logInOnWeb("secure")
            let setCookie = try #require(response.headers[.setCookie])
            #expect(setCookie.hasSuffix("; HttpOnly; SameSite=Lax; Max-Age=2592000; Secure"), "\(setCookie)")
            let out = try await client.send(.delete, "/web/session", headers: [.cookie: try Self.cookie(from: response), .origin: "https://sprout.example"])
            #expect(out.status == .ok)
            #expect(out.headers[.setCookie] == "sprout_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure")
        }
    }

    @Test func signingUpSignsInAtOnce() async throws {
        try await withTestApp { client, _ in
            let response = try await client.send(
                .post, "/web/account", headers: Self.ownOrigin.with(.contentType, "application/json"),
                body: #"{"username": "newcomer", "email": "Newcomer@Example.com", "password": "password1"}"#
            )
            #expect(response.status == .ok)
            #expect(response.json?["user"]?["email"] == .string("newcomer@example.com"))
            let me = try await client.send(.get, "/users/me", headers: [.cookie: try Self.cookie(from: response)])
            #expect(me.status == .ok)
            #expect(me.json?["username"] == .string("newcomer"))
            let session = try await client.send(.get, "/web/session", headers: [.cookie: try Self.cookie(from: response)])
            #expect(session.json?["user"]?["username"] == .string("newcomer"))
        }
    }

    /// Same rules, same Strapi error bodies, same limiter as `/auth/local` and `/auth/local/register`.
    @Test func errorsAreTheAPIsStrapiErrors() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("taken")
            let taken = try await client.send(
                .post, "/web/account", headers: [.contentType: "application/x-www-form-urlencoded"],
                body: "username=taken&email=other@example.com&password=password1"
            )
            #expect(taken.status == .badRequest)
            #expect(taken.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.username.taken"))
            #expect(taken.headers[.setCookie] == nil)
            let short = try await client.send(.post, "/web/account", headers: [.contentType: "application/x-www-form-urlencoded"], body: "username=ab&email=ab@example.com&password=password1")
            #expect(short.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.username.format"))
            let wrong = try await client.logInOnWeb("taken", password: "wrong-password")
            #expect(wrong.status == .badRequest)
            #expect(wrong.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.invalid"))
            #expect(wrong.headers[.setCookie] == nil)
            // Nine more failures through the API fill the identifier's window; the web route counts them too.
            for _ in 0..<9 {
                try await client.sendForm(.post, "/auth/local", "identifier=taken&password=wrong-password")
            }
            let limited = try await client.logInOnWeb("taken")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.json?["message"]?[0]?["messages"]?[0]?["id"] == .string("Auth.form.error.ratelimit"))
        }
    }

    @Test func logOutEndsTheSessionOnTheServer() async throws {
        try await withTestApp { client, database in
            try await client.signUp("leaving")
            let cookie = try Self.cookie(from: try await client.logInOnWeb("leaving"))
            #expect(try await client.send(.get, "/users/me", headers: [.cookie: cookie]).status == .ok)
            let out = try await client.send(.delete, "/web/session", headers: Self.ownOrigin.with(.cookie, cookie))
            #expect(out.status == .ok)
            #expect(out.headers[.setCookie] == "sprout_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
            #expect(out.headers[.cacheControl] == "private, no-store")
            // A browser that kept the old cookie anyway is nobody now.
            let me = try await client.send(.get, "/users/me", headers: [.cookie: cookie])
            #expect(me.status == .forbidden)
            let count = try await database.executor.readFirst(SQLStatement("SELECT count(*) FROM web_sessions"), as: SQLInt.self)
            #expect(count?.value == 0)
            // Logging out again (another tab) is fine.
            #expect(try await client.send(.delete, "/web/session", headers: Self.ownOrigin.with(.cookie, cookie)).status == .ok)
        }
    }

    @Test func aSessionWorksOnEveryProcessOfTheDatabaseAndEndsOnAll() async throws {
        try await withTestApp { client, database in
            try await client.signUp("shared")
            let cookie = try Self.cookie(from: try await client.logInOnWeb("shared"))
            let second = try database.secondProcess()
            let statuses = try await second.test(.router) { other in
                let before = try await other.send(.get, "/users/me", headers: [.cookie: cookie]).status
                let out = try await other.send(.delete, "/web/session", headers: Self.ownOrigin.with(.cookie, cookie)).status
                return (before, out)
            }
            #expect(statuses.0 == .ok)
            #expect(statuses.1 == .ok)
            #expect(try await client.send(.get, "/users/me", headers: [.cookie: cookie]).status == .forbidden)
        }
    }

    @Test func loggingInAgainEndsTheBrowsersPreviousSession() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("again")
            let first = try Self.cookie(from: try await client.logInOnWeb("again"))
            let second = try await client.send(
                .post, "/web/session", headers: Self.ownOrigin.with(.contentType, "application/json").with(.cookie, first),
                body: #"{"identifier": "again", "password": "password1"}"#
            )
            #expect(second.status == .ok)
            #expect(try await client.send(.get, "/users/me", headers: [.cookie: first]).status == .forbidden)
            #expect(try await client.send(.get, "/users/me", headers: [.cookie: try Self.cookie(from: second)]).status == .ok)
        }
    }

    // MARK: - Cross-site requests

    @Test func aCookiePostFromAnotherSiteIsRefusedAndFromThisSiteAccepted() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("writer")
            let cookie = try Self.cookie(from: try await client.logInOnWeb("writer"))
            let form: HTTPFields = [.cookie: cookie, .contentType: "application/x-www-form-urlencoded"]
            let evil = try await client.send(.post, "/posts", headers: form.with(.origin, "https://evil.example"), body: "text=hello")
            #expect(evil.status == .forbidden)
            let evilReferer = try await client.send(.post, "/posts", headers: form.with(.referer, "https://evil.example/page"), body: "text=hello")
            #expect(evilReferer.status == .forbidden)
            let nowhere = try await client.send(.post, "/posts", headers: form, body: "text=hello")
            #expect(nowhere.status == .forbidden, "a cookie request that names no origin at all is refused too")
            // Security review point 10: an empty Authorization header switched the guard off while the cookie
            // still signed the request in.
            for empty in ["", " "] {
                let blank = try await client.send(.post, "/posts", headers: form.with(.origin, "https://evil.example").with(.authorization, empty), body: "text=hello")
                #expect(blank.status == .forbidden, "Authorization: '\(empty)'")
            }
            let own = try await client.send(.post, "/posts", headers: form.with(.origin, "http://localhost"), body: "text=hello")
            #expect(own.status == .ok)
            #expect(own.json?["user"]?["username"] == .string("writer"))
            let ownReferer = try await client.send(.post, "/posts", headers: form.with(.referer, "http://localhost/community/write"), body: "text=again")
            #expect(ownReferer.status == .ok)
        }
    }

    /// A cross-site `<form enctype="text/plain">` can carry JSON, and bodies are read by content: only the
    /// origin check stops it.
    @Test func aCrossSiteTextPlainBodyCarryingJSONIsRefused() async throws {
        try await withTestApp { client, database in
            try await client.signUp("victim")
            let cookie = try Self.cookie(from: try await client.logInOnWeb("victim"))
            let plain: HTTPFields = [.cookie: cookie, .contentType: "text/plain"]
            let body = #"{"text": "posted by another site", "x": "="}"#
            let evil = try await client.send(.post, "/posts", headers: plain.with(.origin, "https://evil.example"), body: body)
            #expect(evil.status == .forbidden)
            let todo = try await client.send(.post, "/api/v2/todos-json", headers: plain.with(.origin, "https://evil.example"), body: #"{"title": "a todo from elsewhere"}"#)
            #expect(todo.status == .forbidden)
            let count = try await database.executor.readFirst(SQLStatement("SELECT count(*) FROM posts"), as: SQLInt.self)
            #expect(count?.value == 0)
            // The same body from this site's own page is read and stored: it is the origin that decides.
            let own = try await client.send(.post, "/posts", headers: plain.with(.origin, "http://localhost"), body: body)
            #expect(own.status == .ok)
        }
    }

    @Test func anotherSiteCannotLogTheVisitorInOrOut() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("target")
            let login = try await client.send(
                .post, "/web/session", headers: [.contentType: "application/x-www-form-urlencoded", .origin: "https://evil.example"],
                body: "identifier=target&password=password1"
            )
            #expect(login.status == .forbidden)
            #expect(login.headers[.setCookie] == nil)
            let signUp = try await client.send(
                .post, "/web/account", headers: [.contentType: "application/x-www-form-urlencoded", .origin: "https://evil.example"],
                body: "username=planted&email=planted@example.com&password=password1"
            )
            #expect(signUp.status == .forbidden)
            // Security review point 9: `Origin: null` (a sandboxed frame, no Referer) and a browser's own word that
            // the request is cross-site are refused too; this site's own page is not.
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            for headers in [form.with(.origin, "null"), form.with(HTTPField.Name("Sec-Fetch-Site")!, "cross-site"),
                            form.with(HTTPField.Name("Sec-Fetch-Site")!, "same-site")] {
                let planted = try await client.send(.post, "/web/session", headers: headers, body: "identifier=target&password=password1")
                #expect(planted.status == .forbidden && planted.headers[.setCookie] == nil, "\(headers)")
            }
            let ownPage = try await client.send(.post, "/web/session", headers: form.with(.origin, "http://localhost").with(HTTPField.Name("Sec-Fetch-Site")!, "same-origin"),
                                                body: "identifier=target&password=password1")
            #expect(ownPage.status == .ok)
            let cookie = try Self.cookie(from: try await client.logInOnWeb("target"))
            let out = try await client.send(.delete, "/web/session", headers: [.cookie: cookie, .origin: "https://evil.example"])
            #expect(out.status == .forbidden)
            #expect(try await client.send(.get, "/users/me", headers: [.cookie: cookie]).status == .ok)
        }
    }

    @Test func passwordChangeWorksWithTheCookieFromThisSite() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("changer")
            let cookie = try Self.cookie(from: try await client.logInOnWeb("changer"))
            let body = #"{"currentPassword": "password1", "newPassword": "password2", "confirmNewPassword": "password2"}"#
            let evil = try await client.send(.post, "/custom/change-password", headers: [.cookie: cookie, .contentType: "application/json", .origin: "https://evil.example"], body: body)
            #expect(evil.status == .forbidden)
            let own = try await client.send(.post, "/custom/change-password", headers: [.cookie: cookie, .contentType: "application/json", .origin: "http://localhost"], body: body)
            #expect(own.status == .ok)
            #expect(try await client.logInOnWeb("changer", password: "password2").status == .ok)
            // The session it was changed in stays signed in, as the app keeps its token.
            #expect(try await client.send(.get, "/users/me", headers: [.cookie: cookie]).status == .ok)
        }
    }

    // MARK: - Helpers

    static func cookie(from response: (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?)) throws -> String {
        let header = try #require(response.headers[.setCookie], "no Set-Cookie (status \(response.status))")
        return String(try #require(header.split(separator: ";").first))
    }
}

extension TestClientProtocol {
    /// Logs in through the web app's route, as the log-in page's script does (JSON, from this site).
    func logInOnWeb(_ identifier: String, password: String = "password1") async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?) {
        let response = try await send(
            .post, "/web/session", headers: WebSessionTests.ownOrigin.with(.contentType, "application/json"),
            body: #"{"identifier": "\#(identifier)", "password": "\#(password)"}"#
        )
        SuiteLog.noteSecret(password)
        // The session cookie's value: `sprout_session=VALUE; Path=…`.
        SuiteLog.noteSecret(response.headers[.setCookie]?.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init))
        return response
    }
}

extension HTTPFields {
    func with(_ name: HTTPField.Name, _ value: String) -> HTTPFields {
        var copy = self
        copy[name] = value
        return copy
    }
}
