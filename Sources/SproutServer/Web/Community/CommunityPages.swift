import Hummingbird

/// The Community's pages below `/community` (the feed itself is the app page `WebController` serves):
/// `/community/posts/{id}` (a post with its comments) and `/community/write` (a new post, or with `?post=ID`
/// an edit: writing and editing share one screen, as in the app). `community.js` talks to `/posts` and
/// `/comments` with the session cookie. Signed-out visitors see the log-in prompt instead.
struct CommunityPages<Context: CallerRequestContext> {
    let renderer: WebPageRenderer

    static var app: WebApp { WebApp.all.first { $0.slug == "community" }! }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("community/posts/{id}", use: postPage)
        routes.get("community/write", use: writePage)
        return routes
    }

    private struct PostContext {
        /// For the log-in prompt.
        let app = CommunityPages.app
        let postID: Int
        let visitor: WebVisitor?
        let logInPath: String
    }

    private struct WriteContext {
        /// For the log-in prompt.
        let app = CommunityPages.app
        /// The post being edited; nil for a new post.
        let editing: Int?
        let visitor: WebVisitor?
        let logInPath: String
    }

    @Sendable func postPage(_ request: Request, context: Context) async throws -> Response {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else { throw HTTPError(.notFound) }
        let visitor = renderer.visitor(of: context)
        let page = PostContext(postID: id, visitor: visitor, logInPath: request.logInPath)
        return try renderer.render(
            "community-post", context: page, title: "게시물", current: Self.app, scripts: visitor == nil ? [] : ["community.js"],
            visitor: visitor, request: request
        )
    }

    @Sendable func writePage(_ request: Request, context: Context) async throws -> Response {
        let editing = request.uri.queryParameters.get("post").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let visitor = renderer.visitor(of: context)
        let page = WriteContext(editing: editing, visitor: visitor, logInPath: request.logInPath)
        return try renderer.render(
            "community-write", context: page, title: editing == nil ? "새 글" : "글 수정", current: Self.app,
            scripts: visitor == nil ? [] : ["community.js"], visitor: visitor, request: request
        )
    }
}
