import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Every console route and the reports API, as anonymous, a user, a moderator, an admin and a blocked admin: who
/// gets what. Refused callers get 404 (the console's addresses tell them nothing); a write by a caller who may make
/// it, sent here without the page's form token, gets 403 from the form guard — it got past the gate — and changes
/// nothing. The audit log is unchanged by the whole run.
@Suite struct AdminAuthorizationMatrixTests {
    enum Caller: String, CaseIterable { case anonymous, user, moderator, admin, blockedAdmin }

    /// (method, path, the lowest role that passes the gate)
    static let routes: [(HTTPRequest.Method, String, AccountRole)] = [
        (.get, "/admin", .moderator), (.get, "/admin/moderation?kind=post", .moderator), (.get, "/admin/reports", .moderator),
        (.get, "/admin/accounts", .admin), (.get, "/admin/accounts/1", .admin), (.get, "/admin/audit", .admin),
        (.get, "/admin/backups", .admin), (.get, "/admin/boards", .admin), (.get, "/admin/vendors", .admin),
        (.post, "/admin/moderation/hide", .moderator), (.post, "/admin/moderation/restore", .moderator), (.post, "/admin/moderation/delete", .moderator),
        (.post, "/admin/moderation/dismiss", .moderator),
        (.post, "/admin/accounts/1/block", .admin), (.post, "/admin/accounts/1/unblock", .admin), (.post, "/admin/accounts/1/sign-out", .admin),
        (.post, "/admin/accounts/1/send-reset", .admin), (.post, "/admin/accounts/1/role", .admin), (.post, "/admin/accounts/1/delete", .admin),
        (.post, "/admin/backups", .admin), (.post, "/admin/boards", .admin), (.post, "/admin/boards/1/rename", .admin),
        (.post, "/admin/boards/1/move", .admin), (.post, "/admin/boards/1/archive", .admin), (.post, "/admin/boards/1/delete", .admin),
        (.post, "/admin/vendors/1/disable", .admin), (.post, "/admin/vendors/1/rotate-secret", .admin),
    ]

    @Test func everyConsoleRouteAnswersEachKindOfCallerAsItShould() async throws {
        try await withTestApp { client, database in
            let vendor = try await client.makeVendor("seller")  // account 1, vendor 1: every {id} above exists
            let post = try await client.createPost("글", as: vendor.account)
            let userCookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("seller"))
            let moderator = try await AdminConsoleTests.staff(client, database, "moder", role: .moderator)
            let admin = try await AdminConsoleTests.staff(client, database, "boss", role: .admin)
            let blocked = try await AdminConsoleTests.staff(client, database, "fallen", role: .admin)
            _ = try await AccountAdministration(database: database, passwordHashCost: 4).setBlocked("fallen", true, reason: "test", by: .commandLine())
            let entries = try await AdminConsoleTests.auditCount(database)
            let cookies: [Caller: String?] = [
                .anonymous: nil, .user: userCookie, .moderator: moderator.cookie, .admin: admin.cookie, .blockedAdmin: blocked.cookie,
            ]
            let roles: [Caller: AccountRole?] = [.anonymous: nil, .user: .user, .moderator: .moderator, .admin: .admin, .blockedAdmin: nil]

            for (method, path, lowest) in Self.routes {
                for caller in Caller.allCases {
                    var headers: HTTPFields = [.origin: "http://localhost", .contentType: "application/x-www-form-urlencoded"]
                    if let cookie = cookies[caller]! { headers[.cookie] = cookie }
                    let status = try await client.send(method, path, headers: headers, body: method == .post ? "kind=post&id=\(post)" : nil).status
                    let passes = roles[caller]!.map { lowest == .moderator ? $0.mayModerate : $0.mayAdminister } ?? false
                    let expected: HTTPResponse.Status = passes ? (method == .get ? .ok : .forbidden) : .notFound
                    #expect(status == expected, "\(caller) \(method) \(path): \(status)")
                }
                // An admin's Bearer token opens nothing: the console is the web session's.
                let token = try await client.logIn("boss")
                #expect(try await client.send(method, path, headers: token.bearer).status == .notFound, "bearer \(method) \(path)")
            }
            #expect(try await AdminConsoleTests.auditCount(database) == entries, "nothing was changed")
            #expect(try await client.send(.get, "/posts/\(post)", headers: vendor.account.bearer).json?["hidden"] == nil)
        }
    }

    @Test func theReportsAPIForEachKindOfCaller() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("author")
            let post = try await client.createPost("글", as: author)
            let reader = try await client.signUp("reader")
            let admin = try await client.signUp("chief")
            _ = try await AccountAdministration(database: database, passwordHashCost: 4).setRole("chief", .admin, by: .commandLine())
            let blocked = try await client.signUp("fallen")
            _ = try await AccountAdministration(database: database, passwordHashCost: 4).setBlocked("fallen", true, by: .commandLine())
            let body = #"{"kind": "post", "id": \#(post), "reason": "광고"}"#
            func report(_ token: TestAccount?) async throws -> HTTPResponse.Status {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let token { headers[.authorization] = "Bearer \(token.token)" }
                return try await client.send(.post, "/api/reports", headers: headers, body: body).status
            }
            #expect(try await report(nil) == .unauthorized)
            #expect(try await report(reader) == .created)
            #expect(try await report(admin) == .created)
            #expect(try await report(blocked) == .unauthorized, "a blocked account's token is refused")
        }
    }
}
