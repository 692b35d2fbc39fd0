import Foundation
import SproutWire

/// Every call of the Mail Plug board API as Sprout serves it (`/api/v2/boards…`), with the kit's models.
///
/// Every call carries a Bearer token: the account's JWT (`Session.board`, or any `APIClient` whose token provider
/// supplies one) or a static API token (`init(baseURL:token:)`, for an app with a hard-coded token as the
/// original assignment had; it reads every board and writes nothing).
public struct BoardClient: Sendable {
    /// The client requests go through.
    public let client: APIClient

    /// Board calls through `client`, with whatever token its provider supplies.
    public init(client: APIClient) {
        self.client = client
    }

    /// Board calls that always carry the fixed `token` (the server's `BOARD_API_TOKEN`, say). A 401 signs
    /// nobody out: there is no session behind the token.
    /// - Parameters:
    ///   - baseURL: the Sprout server.
    ///   - token: the Bearer token every request carries.
    ///   - transport: how requests travel; `URLSessionTransport()` unless a test needs otherwise.
    ///   - allowsInsecureHTTP: see `APIClient`.
    public init(baseURL: URL, token: String, transport: any HTTPTransport = URLSessionTransport(), allowsInsecureHTTP: Bool = false) {
        client = APIClient(baseURL: baseURL, transport: transport, tokenProvider: { token }, allowsInsecureHTTP: allowsInsecureHTTP)
    }

    /// The page size every client of the original app used.
    public static let pageSize = 30

    /// `GET /api/v2/boards`: every board, in the server's order.
    public func boards() async throws(APIError) -> [Board] {
        try await client.send(Request<BoardEnvelope<BoardJSON>>(path: "/api/v2/boards")).value.map(\.board)
    }

    /// `GET /api/v2/boards/{boardID}/posts`: one page of a board's posts, newest first, or of a search in it.
    /// - Parameters:
    ///   - offset: how many matches to skip, from 0.
    ///   - limit: the page size; the server clamps it to 1…100.
    ///   - search: `search` and `searchTarget`; nil, or an empty text, lists every post.
    /// - Throws: 404 for an unknown board, 400 for a negative offset or limit.
    public func posts(boardID: Int, offset: Int = 0, limit: Int = pageSize, search: BoardSearchQuery? = nil) async throws(APIError) -> BoardPage {
        var query: [(String, String?)] = [("offset", String(offset)), ("limit", String(limit))]
        if let search, !search.text.isEmpty {
            query += [("search", search.text), ("searchTarget", search.target.rawValue)]
        }
        return try await client.send(Request(path: Self.postsPath(boardID), query: query) { data in
            try JSONDecoder().decode(BoardEnvelope<BoardPostJSON>.self, from: data).page()
        })
    }

    /// `GET /api/v2/boards/{boardID}/posts?pinned=true`: the board's pinned posts (at most 10), newest pin first,
    /// to show above its list. The list itself stays newest first, pinned posts in their places.
    /// - Throws: 404 for an unknown board.
    public func pinnedPosts(boardID: Int) async throws(APIError) -> [BoardPost] {
        try await client.send(Request(path: Self.postsPath(boardID), query: [("pinned", "true"), ("limit", "100")]) { data in
            try JSONDecoder().decode(BoardEnvelope<BoardPostJSON>.self, from: data).page()
        }).posts
    }

    /// `PUT|DELETE /api/v2/boards/{boardID}/posts/{postID}/pin`: pins the post above its board, or unpins it
    /// (moderators and admins: `Board.manageable`); answers it as it now is.
    /// - Throws: 403 for anyone else, 404 for an unknown post, 409 when the board already shows 10 pinned posts.
    public func setPinned(boardID: Int, postID: Int, _ pinned: Bool) async throws(APIError) -> BoardPost {
        try await client.send(Self.postRequest(pinned ? .put : .delete, Self.postsPath(boardID) + "/\(postID)/pin"))
    }

    /// `GET /api/v2/boards/{boardID}/posts/{postID}`: one post; the server counts a view.
    /// - Throws: 404 for an unknown board or post.
    public func post(boardID: Int, postID: Int) async throws(APIError) -> BoardPost {
        try await client.send(Self.postRequest(.get, Self.postsPath(boardID) + "/\(postID)"))
    }

    /// `POST /api/v2/boards/{boardID}/posts` with `{"title", "contents", "parentPostId"?}`: writes a post, or a
    /// reply to `parentPostID`; answers it (201).
    /// - Throws: 403 for a board that is not writable or the static token, 400 for an empty or too long field
    ///   or a parent that is no post of the board, 404 for an unknown board.
    public func createPost(boardID: Int, title: String, contents: String, parentPostID: Int? = nil) async throws(APIError) -> BoardPost {
        let body = BoardPostInputJSON(title: title, contents: contents, parentPostId: parentPostID)
        return try await client.send(Self.postRequest(.post, Self.postsPath(boardID), body: .encodable(body)))
    }

    /// `PUT /api/v2/boards/{boardID}/posts/{postID}` with `{"title", "contents"}`: edits one's own post (or, for a
    /// moderator or an admin, a notice of a board only they write in: `Board.mayEdit(_:)`); answers it as it now is.
    /// - Throws: 403 for someone else's post, 404 for an unknown one, 400 for an empty or too long field.
    public func updatePost(boardID: Int, postID: Int, title: String, contents: String) async throws(APIError) -> BoardPost {
        let body = BoardPostInputJSON(title: title, contents: contents)
        return try await client.send(Self.postRequest(.put, Self.postsPath(boardID) + "/\(postID)", body: .encodable(body)))
    }

    /// `DELETE /api/v2/boards/{boardID}/posts/{postID}`: deletes one's own post (204).
    /// - Throws: 403 for someone else's post, 404 for an unknown one.
    public func deletePost(boardID: Int, postID: Int) async throws(APIError) {
        try await client.send(Request(method: .delete, path: Self.postsPath(boardID) + "/\(postID)") { _ in })
    }

    private static func postsPath(_ boardID: Int) -> String {
        "/api/v2/boards/\(boardID)/posts"
    }

    private static func postRequest(_ method: HTTPMethod, _ path: String, body: RequestBody? = nil) -> Request<BoardPost> {
        Request(method: method, path: path, body: body) { data in
            try JSONDecoder().decode(BoardPostJSON.self, from: data).post()
        }
    }
}

/// A search in one board: the text and where to look.
public struct BoardSearchQuery: Sendable, Hashable {
    /// What to look for; sent as typed (the server trims it, and an empty text is no search).
    public var text: String
    /// Title, contents, writer, or all three.
    public var target: BoardSearchTarget

    /// A search for `text` in `target`.
    public init(text: String, target: BoardSearchTarget = .all) {
        self.text = text
        self.target = target
    }
}
