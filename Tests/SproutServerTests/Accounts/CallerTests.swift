import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SproutServer

/// The caller is resolved once per request (`CallerMiddleware`) and read from the context; route groups that need
/// an account refuse everyone else in their own contract's shape before a handler runs.
@Suite struct CallerTests {
    @Test func theBoardTokenOpensTheBoardsAndNothingElse() async throws {
        let token = "mailplug-static-token-0123456789"
        try await withTestApp(configure: { $0.board.apiToken = token }) { client, _ in
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            #expect(try await client.send(.get, "/api/v2/boards", headers: bearer).status == .ok)
            let todos = try await client.send(.get, "/api/v2/todos", headers: bearer)
            #expect(todos.status == .unauthorized && todos.json?["message"]?.string == "Unauthenticated.")
            let posts = try await client.send(.get, "/posts", headers: bearer)
            #expect(posts.status == .unauthorized && posts.json?["message"]?.string == "Invalid token.")
            #expect(try await client.send(.get, "/api/diary/entries", headers: bearer).status == .unauthorized)
            #expect(try await client.send(.get, "/api/vendors/me", headers: bearer).status == .unauthorized)
            let session = try await client.send(.get, "/web/session", headers: bearer)
            #expect(session.status == .ok && session.json?["user"] == .null)
        }
    }

    @Test func eachGroupRefusesInItsContractsShapeBeforeReadingTheBody() async throws {
        try await withTestApp { client, _ in
            let junk: HTTPFields = [.contentType: "application/json"]
            let strapi = try await client.send(.post, "/posts", headers: junk, body: "{not json")
            #expect(strapi.status == .forbidden && strapi.json?["message"]?.string == "Forbidden")
            let wrong = try await client.send(.post, "/posts", headers: [.authorization: "Bearer nonsense", .contentType: "application/json"], body: "{")
            #expect(wrong.status == .unauthorized && wrong.json?["message"]?.string == "Invalid token.")
            let diary = try await client.send(.put, "/api/diary/entries/abc", headers: junk, body: "{")
            #expect(diary.status == .unauthorized)
            let board = try await client.send(.post, "/api/v2/boards/1/posts", headers: junk, body: "{")
            #expect(board.status == .unauthorized)
            let vendors = try await client.send(.post, "/api/vendors", headers: junk, body: "{")
            #expect(vendors.status == .unauthorized)
            // Refusals depend on the caller too: no cache may keep them.
            #expect(strapi.headers[.cacheControl] == "private, no-store" && board.headers[.vary] == "Authorization, Cookie")
        }
    }

    /// One account lookup per request: the middleware's. Handlers, the signed-in context and the web renderer read
    /// what it found.
    @Test func aSignedInRequestLooksItsAccountUpOnce() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("once")
            let counting = CountingExecutor(base: database.executor)
            let configuration = SproutConfiguration()
            let accounts = AccountsParts(configuration, executor: counting, sealer: .forTests)
            let router = Router(context: SproutRequestContext.self)
            router.add(middleware: CallerMiddleware(authenticator: accounts.authenticator))
            router.group(context: SignedInContext<SproutRequestContext, StrapiError>.self).get("me") { _, context in
                context.account.username
            }
            try await Application(router: router).test(.router) { local in
                // The first call reads the token key; count the second.
                _ = try await local.send(.get, "/me", headers: account.bearer)
                counting.reset()
                let me = try await local.execute(uri: "/me", method: .get, headers: account.bearer)
                #expect(me.status == .ok && String(buffer: me.body) == "once")
                #expect(counting.statements == 1)
                let anonymous = try await local.execute(uri: "/me", method: .get)
                #expect(anonymous.status == .forbidden)
                #expect(counting.statements == 1)
            }
        }
    }
}
