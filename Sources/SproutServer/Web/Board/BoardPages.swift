import Hummingbird

/// The Mail Plug Board's pages below `/board` (the board menu, posts and search are the app page `WebController`
/// serves): `/board/{boardId}/posts/{postId}` (a post) and `/board/{boardId}/write` and
/// `/board/{boardId}/posts/{postId}/edit` (one form for writing and editing; `/board/{boardId}/write?reply={postId}`
/// writes a reply to that post, the API's `parentPostId`). `board.js` talks to
/// `/api/v2/boards…` with the session cookie, which the board API takes as the account. Every board page needs an
/// account, as the API does: signed-out visitors see the log-in prompt.
struct BoardPages<Context: CallerRequestContext> {
    let renderer: WebPageRenderer

    static var app: WebApp { WebApp.all.first { $0.slug == "board" }! }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("board/{boardId}/posts/{postId}", use: postPage)
        routes.get("board/{boardId}/posts/{postId}/edit", use: editPage)
        routes.get("board/{boardId}/write", use: writePage)
        return routes
    }

    private struct PostContext {
        /// For the log-in prompt.
        let app = BoardPages.app
        let boardID: Int
        let postID: Int
        let visitor: WebVisitor?
        let logInPath: String
    }

    private struct FormContext {
        /// For the log-in prompt.
        let app = BoardPages.app
        let boardID: Int
        /// The post being edited; nil for a new one.
        let editing: Int?
        /// The post a new one replies to (`?reply=`); nil for a post of its own.
        let replyTo: Int?
        let visitor: WebVisitor?
        let logInPath: String
    }

    @Sendable func postPage(_ request: Request, context: Context) async throws -> Response {
        let (boardID, postID) = (try Self.id("boardId", context), try Self.id("postId", context))
        let visitor = renderer.visitor(of: context)
        let page = PostContext(boardID: boardID, postID: postID, visitor: visitor, logInPath: request.logInPath)
        return try renderer.render(
            "board-post", context: page, title: "게시글", current: Self.app, scripts: visitor == nil ? [] : ["board.js"],
            visitor: visitor, request: request
        )
    }

    @Sendable func writePage(_ request: Request, context: Context) async throws -> Response {
        var replyTo: Int?
        if let raw = request.uri.queryParameters.get("reply") {
            guard let id = Int(raw), id > 0 else { throw HTTPError(.notFound) }
            replyTo = id
        }
        return try formPage(boardID: try Self.id("boardId", context), editing: nil, replyTo: replyTo, request: request, context: context)
    }

    @Sendable func editPage(_ request: Request, context: Context) async throws -> Response {
        try formPage(boardID: try Self.id("boardId", context), editing: try Self.id("postId", context), replyTo: nil, request: request, context: context)
    }

    private func formPage(boardID: Int, editing: Int?, replyTo: Int?, request: Request, context: Context) throws -> Response {
        let visitor = renderer.visitor(of: context)
        let page = FormContext(boardID: boardID, editing: editing, replyTo: replyTo, visitor: visitor, logInPath: request.logInPath)
        let title = editing != nil ? "글 수정" : replyTo != nil ? "답글 쓰기" : "글쓰기"
        return try renderer.render(
            "board-form", context: page, title: title, current: Self.app,
            scripts: visitor == nil ? [] : ["board.js"], visitor: visitor, request: request
        )
    }

    /// A positive whole number from the path, or 404.
    private static func id(_ name: String, _ context: Context) throws -> Int {
        guard let raw = context.parameters.get(name), let id = Int(raw), id > 0 else { throw HTTPError(.notFound) }
        return id
    }
}
