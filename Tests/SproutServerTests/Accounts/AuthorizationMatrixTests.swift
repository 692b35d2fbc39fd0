import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Every mutating route of Community and Todos, called by every kind of caller, against a post, comment and
/// todo that belong to "owner".
@Suite struct AuthorizationMatrixTests {
    enum CallerKind: String, CaseIterable, Sendable {
        case anonymous, owner, otherAccount, malformedToken, expiredToken, foreignToken
    }

    struct Route: Sendable, CustomStringConvertible {
        let method: HTTPRequest.Method
        /// `{post}`, `{comment}` and `{todo}` are replaced by the owner's ids.
        let path: String
        let form: String
        var description: String { "\(method) \(path)" }
    }

    static let communityRoutes = [
        Route(method: .post, path: "/posts", form: "text=new post"),
        Route(method: .put, path: "/posts/{post}", form: "text=changed"),
        Route(method: .delete, path: "/posts/{post}", form: ""),
        Route(method: .post, path: "/comments", form: "comment=new&post={post}"),
        Route(method: .put, path: "/comments/{comment}", form: "comment=changed&post={post}"),
        Route(method: .delete, path: "/comments/{comment}", form: ""),
        Route(method: .post, path: "/custom/change-password", form: "currentPassword=password1&newPassword=password2&confirmNewPassword=password2"),
    ]

    static let todoRoutes = ["v1", "v2"].flatMap { version in
        [
            Route(method: .post, path: "/api/\(version)/todos", form: "title=a brand new todo"),
            Route(method: .post, path: "/api/\(version)/todos-json", form: "title=a brand new todo"),
            Route(method: .put, path: "/api/\(version)/todos/{todo}", form: "title=changed title"),
            Route(method: .post, path: "/api/\(version)/todos-json/{todo}", form: "is_done=true"),
            Route(method: .delete, path: "/api/\(version)/todos/{todo}", form: ""),
        ]
    }

    /// What each caller gets from a Community route: Strapi answers 403 without a token, 401 for a token that
    /// names no one, 403 for someone else's post or comment; anyone signed in may create.
    static func expectedCommunityStatus(_ route: Route, _ caller: CallerKind) -> HTTPResponse.Status {
        switch caller {
        case .anonymous: return .forbidden
        case .malformedToken, .expiredToken, .foreignToken: return .unauthorized
        case .owner: return .ok
        case .otherAccount:
            // Creating is anyone's right, and changing one's own password too (the other account's is also
            // "password1").
            return route.method == .post ? .ok : .forbidden
        }
    }

    /// Todos: a token that names no one is Laravel's 401; anyone else works on their own list, where the
    /// owner's todo does not exist (404) — the anonymous shared list included.
    static func expectedTodoStatus(_ route: Route, _ caller: CallerKind) -> HTTPResponse.Status {
        switch caller {
        case .malformedToken, .expiredToken, .foreignToken: return .unauthorized
        case .owner: return .ok
        case .anonymous, .otherAccount: return route.path.contains("{todo}") ? .notFound : .ok
        }
    }

    @Test(arguments: communityRoutes, CallerKind.allCases)
    func communityRoute(_ route: Route, caller: CallerKind) async throws {
        try await check(route, caller: caller, expected: Self.expectedCommunityStatus(route, caller))
    }

    @Test(arguments: todoRoutes, CallerKind.allCases)
    func todoRoute(_ route: Route, caller: CallerKind) async throws {
        try await check(route, caller: caller, expected: Self.expectedTodoStatus(route, caller))
    }

    private func check(_ route: Route, caller: CallerKind, expected: HTTPResponse.Status) async throws {
        try await withTestApp { client, database in
            let owner = try await client.signUp("owner")
            let other = try await client.signUp("other")
            let post = try await client.createPost("the owner's post", as: owner)
            let comment = try await client.createComment("the owner's comment", on: post, as: owner)
            let todoResponse = try await client.sendForm(.post, "/api/v2/todos", "title=the owner's todo", headers: owner.bearer)
            let todo = try #require(todoResponse.json?["data"]?["id"]?.int)

            var headers: HTTPFields = [:]
            switch caller {
            case .anonymous: break
            case .owner: headers = owner.bearer
            case .otherAccount: headers = other.bearer
            case .malformedToken: headers = [.authorization: "Bearer this.is-not.a-token"]
            case .expiredToken:
                headers = [.authorization: "Bearer \(try await database.token(for: owner.id, issuedAt: Date().addingTimeInterval(-31 * 24 * 3600)))"]
            case .foreignToken:
                headers = [.authorization: "Bearer \(try await database.token(for: owner.id, secret: "another server"))"]
            }
            let path = route.path.replacingOccurrences(of: "{post}", with: "\(post)")
                .replacingOccurrences(of: "{comment}", with: "\(comment)")
                .replacingOccurrences(of: "{todo}", with: "\(todo)")
            let form = route.form.replacingOccurrences(of: "{post}", with: "\(post)")
            let response = try await client.sendForm(route.method, path, form, headers: headers)
            #expect(response.status == expected, "\(route) as \(caller): \(String(describing: response.json))")
            if expected == .unauthorized, path.hasPrefix("/api/") {
                #expect(response.json == .object(["message": .string("Unauthenticated.")]))
            } else if expected == .unauthorized {
                #expect(response.json?["message"] == .string("Invalid token."))
            }

            // Nothing changed unless the answer said so.
            let stillThere = try await client.send(.get, "/posts/\(post)", headers: owner.bearer)
            if expected != .ok || !(route.path.contains("{post}") || route.path.contains("{comment}")) || route.method != .delete {
                if route.path != "/posts/{post}" || route.method != .delete || expected != .ok {
                    #expect(stillThere.status == .ok)
                }
            }
            if expected != .ok {
                #expect(stillThere.json?["text"] == .string("the owner's post"))
                #expect(stillThere.json?["comments"]?[0]?["comment"] == .string("the owner's comment"))
                let todoNow = try await client.send(.get, "/api/v2/todos/\(todo)", headers: owner.bearer)
                #expect(todoNow.json?["data"]?["title"] == .string("the owner's todo"))
                #expect(todoNow.json?["data"]?["is_done"] == .bool(false))
            }
        }
    }
}

/// Todos per account: each token has its own list, anonymous callers keep the shared one.
@Suite struct TodosPerAccountTests {
    @Test func eachAccountSeesOnlyItsOwnTodosAndAnonymousCallersTheSharedList() async throws {
        try await withTestApp { client, _ in
            let alice = try await client.signUp("alice")
            let bob = try await client.signUp("bob")
            try await client.createTodo("a shared todo for everyone")
            let aliceTodo = try await client.sendForm(.post, "/api/v2/todos", "title=alice's own todo", headers: alice.bearer)
            let aliceID = try #require(aliceTodo.json?["data"]?["id"]?.int)
            try await client.sendForm(.post, "/api/v1/todos", "title=bob's own todo", headers: bob.bearer)

            func titles(_ headers: HTTPFields) async throws -> [String] {
                let page = try await client.send(.get, "/api/v2/todos", headers: headers)
                return page.json?["data"]?.array?.compactMap { $0["title"]?.string } ?? []
            }
            #expect(try await titles([:]) == ["a shared todo for everyone"])
            #expect(try await titles(alice.bearer) == ["alice's own todo"])
            #expect(try await titles(bob.bearer) == ["bob's own todo"])
            #expect(try await client.send(.get, "/api/v2/todos?page=1", headers: alice.bearer).json?["meta"]?["total"]?.int == 1)
            #expect(try await client.send(.get, "/api/v2/todos/\(aliceID)", headers: bob.bearer).status == .notFound)
            #expect(try await client.send(.get, "/api/v2/todos/\(aliceID)").status == .notFound)
            let search = try await client.send(.get, "/api/v2/todos/search?query=own", headers: alice.bearer)
            #expect(search.json?["data"]?.array?.count == 1)
        }
    }

    @Test func anInvalidTokenIsLaravels401EvenOnReads() async throws {
        try await withTestApp { client, _ in
            for path in ["/api/v2/todos", "/api/v2/todos/1", "/api/v1/todos/search?query=abc"] {
                let response = try await client.send(.get, path, headers: [.authorization: "Bearer nope"])
                #expect(response.status == .unauthorized, "\(path)")
                #expect(response.json == .object(["message": .string("Unauthenticated.")]))
            }
        }
    }
}
