import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// An in-memory community server on `FakeServer`: accounts, posts and comments with Strapi's
/// answers and owner checks, every request recorded, failures injectable and answers holdable — for the store
/// behaviour a live server cannot be made to show on cue (a refusal in the middle of an edit, a page held in
/// flight). The live tests check the same flows against the real server.
final class FakeCommunityServer: HTTPTransport, @unchecked Sendable {
    struct Account { var id: Int; var username: String; var email: String; var password: String }
    struct StoredPost { var id: Int; var text: String; var userID: Int; var created: Date; var updated: Date }
    struct StoredComment { var id: Int; var text: String; var userID: Int; var postID: Int; var created: Date; var updated: Date }

    // Guarded by `server`'s lock; the routes run with it held.
    private var accounts: [Int: Account] = [:]
    private var tokens: [String: Int] = [:]
    private var posts: [StoredPost] = []
    private var comments: [StoredComment] = []
    private var nextID = 1
    private var clock = Date(timeIntervalSince1970: 1_700_000_000)
    private let server = FakeServer()

    static let base = FakeServer.base

    init() {
        server.route("POST", "/auth/local/register") { [unowned self] in self.register(FakeCommunityServer.form($0.request.httpBody)) }
        server.route("POST", "/auth/local") { [unowned self] in self.logIn(FakeCommunityServer.form($0.request.httpBody)) }
        // Everything else needs a token: none → 403, an unknown one → 401 (the todos answer theirs the Laravel way).
        for (method, path) in [
            ("GET", "/users/me"), ("POST", "/custom/change-password"), ("GET", "/posts"), ("GET", "/posts/count"), ("GET", "/posts/:id"),
            ("POST", "/posts"), ("PUT", "/posts/:id"), ("DELETE", "/posts/:id"), ("GET", "/comments"), ("GET", "/comments/count"),
            ("POST", "/comments"), ("PUT", "/comments/:id"), ("DELETE", "/comments/:id"), ("GET", "/api/v2/todos"),
        ] {
            server.route(method, path) { [unowned self] in self.signedIn($0, route: "\(method) \(path)") }
        }
        server.route(nil, "/*") { [unowned self] in self.signedIn($0, route: nil) }
    }

    // MARK: Seeding and inspection

    /// Adds an account and returns its id and a token for it.
    @discardableResult
    func addAccount(username: String, password: String = "password1") -> (id: Int, token: String) {
        server.withLock {
            let id = takeID()
            accounts[id] = Account(id: id, username: username, email: "\(username)@example.com", password: password)
            let token = "token-\(id)-\(UUID().uuidString.prefix(8))"
            tokens[token] = id
            return (id, token)
        }
    }

    /// Makes every token issued so far invalid (as an expiry would).
    func revokeAllTokens() { server.withLock { tokens = [:] } }

    /// Adds `count` posts by `userID`, one second apart, oldest first; returns their ids in that order.
    @discardableResult
    func addPosts(_ count: Int, by userID: Int, text: (Int) -> String = { "post \($0)" }) -> [Int] {
        server.withLock { (1...count).map { insertPost(text: text($0), userID: userID) } }
    }

    /// Adds a comment by `userID` under `postID`.
    @discardableResult
    func addComment(_ text: String, by userID: Int, on postID: Int) -> Int {
        server.withLock { insertComment(text: text, userID: userID, postID: postID) }
    }

    /// The next request whose method is `method` and whose path starts with `pathPrefix` gets this answer instead.
    func failNext(_ method: String, _ pathPrefix: String, status: Int, body: String) {
        server.failNext(.answer(Self.answer(status, body)), method: method, pathPrefix: pathPrefix)
    }

    var requests: [URLRequest] { server.requests }
    var postTexts: [Int: String] { server.withLock { Dictionary(uniqueKeysWithValues: posts.map { ($0.id, $0.text) }) } }
    var commentTexts: [Int: String] { server.withLock { Dictionary(uniqueKeysWithValues: comments.map { ($0.id, $0.text) }) } }

    /// Answers are computed (the server acts) but not returned until `release()`.
    func hold() { server.hold() }

    func release() { server.release() }

    /// Waits (briefly) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws { try await server.waitForRequests(count) }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await server.send(request) }

    // MARK: Routes (called with the lock held)

    private static func answer(_ status: Int, _ body: String) -> FakeServer.Answer {
        .init(status: status, body: Data(body.utf8), headers: ["Content-Type": "application/json"])
    }

    private func register(_ form: [String: String]) -> FakeServer.Answer {
        let (status, body) = { () -> (Int, String) in
            guard let username = form["username"], let email = form["email"], let password = form["password"] else {
                return (400, CommunityFixtures.formError(id: "Auth.form.error.email.provide", message: "Please provide your email."))
            }
            if accounts.values.contains(where: { $0.email == email.lowercased() }) {
                return (400, CommunityFixtures.formError(id: "Auth.form.error.email.taken", message: "Email is already taken."))
            }
            let id = takeID()
            accounts[id] = Account(id: id, username: username, email: email.lowercased(), password: password)
            return (200, authAnswer(for: id))
        }()
        return Self.answer(status, body)
    }

    private func logIn(_ form: [String: String]) -> FakeServer.Answer {
        guard let account = accounts.values.first(where: { ($0.username == form["identifier"] || $0.email == form["identifier"]) && $0.password == form["password"] })
        else { return Self.answer(400, CommunityFixtures.errorInvalidIdentifier) }
        return Self.answer(200, authAnswer(for: account.id))
    }

    /// Answers `route` (`METHOD /pattern`; nil for none) for the account the token names: 403 without a token,
    /// 401 for an unknown one, 404 for no route.
    private func signedIn(_ request: FakeRequest, route: String?) -> FakeServer.Answer {
        guard let header = request.header("Authorization") else { return Self.answer(403, CommunityFixtures.errorForbidden) }
        guard let userID = tokens[String(header.dropFirst("Bearer ".count))] else {
            let laravel = request.request.url!.path.split(separator: "/").first == "api"
            return laravel ? Self.answer(401, #"{"message":"Unauthenticated."}"#) : Self.answer(401, CommunityFixtures.errorInvalidToken)
        }
        guard let route else { return Self.answer(404, CommunityFixtures.errorNotFound) }
        let (status, body) = answer(request, route: route, userID: userID)
        return Self.answer(status, body)
    }

    private func answer(_ fake: FakeRequest, route: String, userID: Int) -> (Int, String) {
        let method = fake.method
        let query = fake.query
        let form = Self.form(fake.request.httpBody)
        let id = fake.parameters["id"]
        switch route {
        case "GET /users/me":
            return (200, encode(userJSON(userID)))
        case "POST /custom/change-password":
            guard accounts[userID]?.password == form["currentPassword"] else {
                return (400, CommunityFixtures.formError(id: "Auth.form.error.invalid", message: "Identifier or password invalid."))
            }
            guard form["newPassword"] == form["confirmNewPassword"], let new = form["newPassword"] else {
                return (400, CommunityFixtures.formError(id: "Auth.form.error.password.matching", message: "Passwords do not match."))
            }
            accounts[userID]?.password = new
            return (200, encode(userJSON(userID)))
        case "GET /posts":
            let descending = (query["_sort"] ?? "created_at:desc").hasSuffix(":desc")
            let ordered = posts.sorted { descending ? $0.id > $1.id : $0.id < $1.id }
            let start = Int(query["_start"] ?? "0") ?? 0
            let limit = Int(query["_limit"] ?? "100") ?? 100
            let page = ordered.dropFirst(start).prefix(limit == -1 ? Int.max : limit)
            return (200, encode(page.map(postJSON)))
        case "GET /posts/count":
            return (200, String(posts.count))
        case "GET /posts/:id":
            guard let post = posts.first(where: { String($0.id) == id }) else { return (404, CommunityFixtures.errorNotFound) }
            return (200, encode(postJSON(post)))
        case "POST /posts":
            let id = insertPost(text: form["text"] ?? "", userID: userID)
            return (200, encode(postJSON(posts.first { $0.id == id }!)))
        case "PUT /posts/:id", "DELETE /posts/:id":
            guard let index = posts.firstIndex(where: { String($0.id) == id }) else { return (404, CommunityFixtures.errorNotFound) }
            guard posts[index].userID == userID else { return (403, CommunityFixtures.errorForbidden) }
            if method == "DELETE" {
                let answer = encode(postJSON(posts[index]))
                comments.removeAll { $0.postID == posts[index].id }
                posts.remove(at: index)
                return (200, answer)
            }
            posts[index].text = form["text"] ?? posts[index].text
            posts[index].updated = tick()
            return (200, encode(postJSON(posts[index])))
        case "GET /comments":
            let list = comments.filter { query["post"] == nil || String($0.postID) == query["post"] }.sorted { $0.id < $1.id }
            return (200, encode(list.map(commentJSON)))
        case "GET /comments/count":
            return (200, String(comments.filter { String($0.postID) == query["post"] }.count))
        case "POST /comments":
            guard let postID = form["post"].flatMap(Int.init), posts.contains(where: { $0.id == postID }) else {
                return (404, CommunityFixtures.errorNotFound)
            }
            let id = insertComment(text: form["comment"] ?? "", userID: userID, postID: postID)
            return (200, encode(commentJSON(comments.first { $0.id == id }!)))
        case "PUT /comments/:id", "DELETE /comments/:id":
            guard let index = comments.firstIndex(where: { String($0.id) == id }) else { return (404, CommunityFixtures.errorNotFound) }
            guard comments[index].userID == userID else { return (403, CommunityFixtures.errorForbidden) }
            if method == "DELETE" {
                return (200, encode(commentJSON(comments.remove(at: index))))
            }
            comments[index].text = form["comment"] ?? comments[index].text
            comments[index].updated = tick()
            return (200, encode(commentJSON(comments[index])))
        case "GET /api/v2/todos":
            return (200, encode(LaravelPage<TodoJSON>(data: [], meta: LaravelPageMeta(page: 1, perPage: 10, count: 0, total: 0), message: "ok")))
        default:
            return (404, CommunityFixtures.errorNotFound)
        }
    }

    private func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private func tick() -> Date {
        clock += 1.25
        return clock
    }

    private func insertPost(text: String, userID: Int) -> Int {
        let id = takeID()
        let now = tick()
        posts.append(StoredPost(id: id, text: text, userID: userID, created: now, updated: now))
        return id
    }

    private func insertComment(text: String, userID: Int, postID: Int) -> Int {
        let id = takeID()
        let now = tick()
        comments.append(StoredComment(id: id, text: text, userID: userID, postID: postID, created: now, updated: now))
        return id
    }

    private func authAnswer(for id: Int) -> String {
        let token = "token-\(id)-\(UUID().uuidString.prefix(8))"
        tokens[token] = id
        return encode(StrapiAuthJSON(jwt: token, user: userJSON(id)))
    }

    private func userJSON(_ id: Int) -> StrapiUserJSON {
        let account = accounts[id]!
        let created = StrapiTimestamp.string(from: Date(timeIntervalSince1970: 1_600_000_000))
        return StrapiUserJSON(id: id, username: account.username, email: account.email, createdAt: created, updatedAt: created)
    }

    private func nestedUser(_ id: Int) -> StrapiNestedUserJSON {
        let user = userJSON(id)
        return StrapiNestedUserJSON(id: id, username: user.username, email: user.email, createdAt: user.createdAt, updatedAt: user.updatedAt)
    }

    private func postJSON(_ post: StoredPost) -> PostJSON {
        let own = comments.filter { $0.postID == post.id }.sorted { $0.id < $1.id }.map {
            CommentShallowJSON(id: $0.id, comment: $0.text, user: $0.userID, post: $0.postID,
                               createdAt: StrapiTimestamp.string(from: $0.created), updatedAt: StrapiTimestamp.string(from: $0.updated))
        }
        return PostJSON(id: post.id, text: post.text, user: nestedUser(post.userID),
                        createdAt: StrapiTimestamp.string(from: post.created), updatedAt: StrapiTimestamp.string(from: post.updated), comments: own)
    }

    private func commentJSON(_ comment: StoredComment) -> CommentJSON {
        let post = posts.first { $0.id == comment.postID }.map {
            PostShallowJSON(id: $0.id, text: $0.text, user: $0.userID,
                            createdAt: StrapiTimestamp.string(from: $0.created), updatedAt: StrapiTimestamp.string(from: $0.updated))
        }
        return CommentJSON(id: comment.id, comment: comment.text, user: nestedUser(comment.userID), post: post,
                           createdAt: StrapiTimestamp.string(from: comment.created), updatedAt: StrapiTimestamp.string(from: comment.updated))
    }

    private func encode<Value: Encodable>(_ value: Value) -> String {
        String(decoding: try! JSONEncoder().encode(value), as: UTF8.self)
    }

    /// Reads a urlencoded body the way a server does.
    static func form(_ body: Data?) -> [String: String] {
        guard let body, let text = String(data: body, encoding: .utf8), !text.isEmpty else { return [:] }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part) }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }
}
