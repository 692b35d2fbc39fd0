import Foundation
import SproutWire

/// Every endpoint of the community service (SeSAC's Strapi v3 API), with the kit's models and `Date`s.
///
/// Bodies go as `application/x-www-form-urlencoded`, as the original apps sent them, but percent-encoded
/// properly so `&`, `=`, `+` and Korean text arrive as written. Every call but `register` and `login` needs the
/// client's token provider to supply a token (the server answers 403 without one, 401 for a bad one).
public struct CommunityClient: Sendable {
    /// The client requests go through.
    public let client: APIClient

    /// Community calls through `client`.
    public init(client: APIClient) {
        self.client = client
    }

    // MARK: Accounts

    /// `POST /auth/local/register`: creates an account and signs it in.
    /// - Throws: `APIError.status` 400 with a form message id such as `Auth.form.error.email.taken`.
    public func register(username: String, email: String, password: String) async throws(APIError) -> CommunityAuth {
        let fields = [("username", username), ("email", email), ("password", password)]
        return try await client.send(Self.request(.post, "/auth/local/register", form: fields) { (auth: StrapiAuthJSON) in try auth.communityAuth() })
    }

    /// `POST /auth/local`: signs in with a username or email.
    /// - Throws: `APIError.status` 400 `Auth.form.error.invalid` for a wrong identifier or password, 429
    ///   `Auth.form.error.ratelimit` after too many failures.
    public func login(identifier: String, password: String) async throws(APIError) -> CommunityAuth {
        let fields = [("identifier", identifier), ("password", password)]
        return try await client.send(Self.request(.post, "/auth/local", form: fields) { (auth: StrapiAuthJSON) in try auth.communityAuth() })
    }

    /// `POST /custom/change-password`: answers the updated user. The token stays valid.
    /// - Throws: 400 `Auth.form.error.invalid` (wrong current password) or `Auth.form.error.password.matching`.
    public func changePassword(current: String, new: String, confirmation: String) async throws(APIError) -> CommunityUser {
        let fields = [("currentPassword", current), ("newPassword", new), ("confirmNewPassword", confirmation)]
        return try await client.send(Self.request(.post, "/custom/change-password", form: fields) { (user: StrapiUserJSON) in try user.communityUser() })
    }

    /// `GET /users/me`: the account the token belongs to.
    public func me() async throws(APIError) -> CommunityUser {
        try await client.send(Self.request(.get, "/users/me") { (user: StrapiUserJSON) in try user.communityUser() })
    }

    // MARK: Posts

    /// `GET /posts`: `limit` posts from offset `start`, in `sort` order.
    /// - Parameter limit: how many; `-1` asks for all of them (Strapi's rule).
    public func posts(start: Int = 0, limit: Int = 100, sort: CommunitySort = .newestFirst) async throws(APIError) -> [Post] {
        let query = [("_start", String(start)), ("_limit", String(limit)), ("_sort", sort.queryValue)]
        return try await client.send(Self.request(.get, "/posts", query: query) { (posts: [PostJSON]) in try posts.map { try $0.post() } })
    }

    /// `GET /posts/count`: how many posts there are (the server answers a bare JSON number).
    public func postCount() async throws(APIError) -> Int {
        try await client.send(Request<Int>(path: "/posts/count"))
    }

    /// `GET /posts/{id}`; 404 for an unknown id.
    public func post(id: Int) async throws(APIError) -> Post {
        try await client.send(Self.request(.get, "/posts/\(id)") { (post: PostJSON) in try post.post() })
    }

    /// `POST /posts`: the server makes the token's owner the author.
    public func createPost(text: String) async throws(APIError) -> Post {
        try await client.send(Self.request(.post, "/posts", form: [("text", text)]) { (post: PostJSON) in try post.post() })
    }

    /// `PUT /posts/{id}`: 403 unless the token's owner wrote the post.
    public func updatePost(id: Int, text: String) async throws(APIError) -> Post {
        try await client.send(Self.request(.put, "/posts/\(id)", form: [("text", text)]) { (post: PostJSON) in try post.post() })
    }

    /// `DELETE /posts/{id}` (with its comments); answers the post as it was. 403 unless the token's owner wrote it.
    @discardableResult
    public func deletePost(id: Int) async throws(APIError) -> Post {
        try await client.send(Self.request(.delete, "/posts/\(id)") { (post: PostJSON) in try post.post() })
    }

    // MARK: Comments

    /// `GET /comments?post={postID}&_sort=created_at:asc`: a post's comments, oldest first.
    public func comments(postID: Int) async throws(APIError) -> [Comment] {
        let query = [("post", String(postID)), ("_sort", CommunitySort.oldestFirst.queryValue)]
        return try await client.send(Self.request(.get, "/comments", query: query) { (comments: [CommentJSON]) in try comments.map { try $0.comment() } })
    }

    /// `GET /comments/count?post={postID}`: how many comments a post has.
    public func commentCount(postID: Int) async throws(APIError) -> Int {
        try await client.send(Request<Int>(path: "/comments/count", query: [("post", String(postID))]))
    }

    /// `POST /comments` with `comment` and `post`: the server makes the token's owner the author.
    public func createComment(postID: Int, text: String) async throws(APIError) -> Comment {
        let fields = [("comment", text), ("post", String(postID))]
        return try await client.send(Self.request(.post, "/comments", form: fields) { (comment: CommentJSON) in try comment.comment() })
    }

    /// `PUT /comments/{id}` with `comment` and `post` (the original apps resend the post id): 403 unless the
    /// token's owner wrote the comment.
    public func updateComment(id: Int, postID: Int, text: String) async throws(APIError) -> Comment {
        let fields = [("comment", text), ("post", String(postID))]
        return try await client.send(Self.request(.put, "/comments/\(id)", form: fields) { (comment: CommentJSON) in try comment.comment() })
    }

    /// `DELETE /comments/{id}`; answers the comment as it was. 403 unless the token's owner wrote it.
    @discardableResult
    public func deleteComment(id: Int) async throws(APIError) -> Comment {
        try await client.send(Self.request(.delete, "/comments/\(id)") { (comment: CommentJSON) in try comment.comment() })
    }

    // MARK: Helpers

    /// A request whose JSON answer is decoded as `Wire` and turned into the kit's model by `convert`.
    private static func request<Wire: Decodable & Sendable, Model: Sendable>(
        _ method: HTTPMethod, _ path: String, query: [(String, String?)] = [], form: [(String, String)]? = nil,
        convert: @escaping @Sendable (Wire) throws -> Model
    ) -> Request<Model> {
        Request(method: method, path: path, query: query, body: form.map { .form($0) }) { data in
            try convert(JSONDecoder().decode(Wire.self, from: data))
        }
    }
}
