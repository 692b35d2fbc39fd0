import Foundation
import HTTPTypes
import Hummingbird
import SproutWire

/// The Mail Plug board API at `/api/v2/boards…`: boards, posts newest first with `offset`/`limit`, search by
/// target, a post's detail (which counts a view), and — beyond the original — writing, editing and deleting one's
/// own posts in writable boards; moderators and admins pin posts and edit the notices of read-only boards.
struct BoardController<Context: CallerRequestContext> {
    /// Every route's context: an account or the static token; anyone else gets the board's 401.
    typealias BoardContext = BoardRequestContext<Context>

    let repository: SQLBoardRepository
    /// Pins, and moderators' edits of notices, each with its audit entry.
    let administration: BoardAdministration
    let emailVisibility: EmailVisibility
    let maxBodySize: Int
    /// The time of day (`buildApplication` hands in the application's).
    var clock = WallClock.system

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        let authorized = routes.group(context: BoardContext.self)
        authorized.get("boards", use: boards)
        authorized.get("boards/{boardId}/posts", use: posts)
        authorized.post("boards/{boardId}/posts", use: createPost)
        authorized.get("boards/{boardId}/posts/{postId}", use: showPost)
        authorized.put("boards/{boardId}/posts/{postId}", use: updatePost)
        authorized.delete("boards/{boardId}/posts/{postId}", use: deletePost)
        authorized.put("boards/{boardId}/posts/{postId}/pin", use: pinPost)
        authorized.delete("boards/{boardId}/posts/{postId}/pin", use: unpinPost)
        return routes
    }

    @Sendable func boards(_ request: Request, context: BoardContext) async throws -> Response {
        let caller = context.caller
        let boards = try await repository.boards(now: clock.now).map { $0.json(for: caller) }
        return try Response.json(BoardEnvelope(value: boards, offset: 0, limit: boards.count, total: boards.count))
    }

    @Sendable func posts(_ request: Request, context: BoardContext) async throws -> Response {
        let caller = context.caller
        let query = try BoardInput.postQuery(request.queryFields)
        let now = clock.now
        let board = try await board(context, now: now)
        let page = try await repository.posts(boardID: board.id, query: query)
        return try Response.json(BoardEnvelope(
            value: page.posts.map { $0.json(for: caller, now: now, emails: emailVisibility) }, offset: query.offset, limit: query.limit, total: page.total
        ))
    }

    @Sendable func showPost(_ request: Request, context: BoardContext) async throws -> Response {
        let caller = context.caller
        let now = clock.now
        let board = try await board(context, now: now)
        guard let post = try await repository.viewPost(id: try postID(context), boardID: board.id, visibleTo: caller.accountID) else { throw BoardError.postNotFound }
        return try Response.json(post.json(for: caller, now: now, emails: emailVisibility))
    }

    @Sendable func createPost(_ request: Request, context: BoardContext) async throws -> Response {
        let (account, board) = try await writer(request, context)
        let input = try BoardInput.post(try await bodyFields(request), allowingParent: true)
        if let parent = input.parentPostID, try await repository.post(id: parent, boardID: board.id, visibleTo: account.id) == nil {
            throw BoardError.badRequest("parentPostId must be a post of this board.")
        }
        let now = clock.now
        let post = try await repository.createPost(
            board: board, author: account, title: input.title, contents: input.contents, parentPostID: input.parentPostID, at: now
        )
        return try Response.json(post.json(for: .account(account), now: now, emails: emailVisibility), status: .created)
    }

    @Sendable func updatePost(_ request: Request, context: BoardContext) async throws -> Response {
        let (account, board) = try await writer(request, context)
        let id = try postID(context)
        let input = try BoardInput.post(try await bodyFields(request), allowingParent: false)
        let now = clock.now
        if let post = try await repository.updatePost(id: id, boardID: board.id, accountID: account.id, title: input.title, contents: input.contents, at: now) {
            return try Response.json(post.json(for: .account(account), now: now, emails: emailVisibility))
        }
        // Someone else's post: a moderator or an admin may edit the notices of a board only they write in.
        guard board.editsOthersPosts(by: account),
              try await repository.post(id: id, boardID: board.id, visibleTo: nil) != nil
        else { throw try await missingOrForbidden(id: id, boardID: board.id) }
        _ = try await administration.editPost(
            id: id, boardID: board.id, title: input.title, contents: input.contents, by: AuditActor(account: account, request: request, client: context.clientAddress, requestID: context.id), at: now
        )
        guard let post = try await repository.post(id: id, boardID: board.id, visibleTo: account.id) else { throw BoardError.postNotFound }
        return try Response.json(post.json(for: .account(account), now: now, emails: emailVisibility))
    }

    @Sendable func pinPost(_ request: Request, context: BoardContext) async throws -> Response {
        try await setPinned(true, request, context)
    }

    @Sendable func unpinPost(_ request: Request, context: BoardContext) async throws -> Response {
        try await setPinned(false, request, context)
    }

    /// Pins or unpins a post everyone sees, for a moderator or an admin; answers the post as it is then.
    private func setPinned(_ pinned: Bool, _ request: Request, _ context: BoardContext) async throws -> Response {
        let now = clock.now
        let board = try await board(context, now: now)
        guard case .account(let account) = context.caller else { throw BoardError.readOnlyToken }
        guard board.isManageable(by: account) else { throw BoardError.notManageable }
        let id = try postID(context)
        guard try await repository.post(id: id, boardID: board.id, visibleTo: nil) != nil else { throw BoardError.postNotFound }
        do {
            _ = try await administration.setPinned(
                postID: id, pinned, by: AuditActor(account: account, request: request, client: context.clientAddress, requestID: context.id)
            )
        } catch let error as BoardAdministrationError {
            switch error {
            case .tooManyPinned: throw BoardError.tooManyPinned
            case .postNotFound: throw BoardError.postNotFound
            default: throw BoardError(status: .conflict, message: error.description)
            }
        }
        guard let post = try await repository.post(id: id, boardID: board.id, visibleTo: account.id) else { throw BoardError.postNotFound }
        return try Response.json(post.json(for: .account(account), now: now, emails: emailVisibility))
    }

    @Sendable func deletePost(_ request: Request, context: BoardContext) async throws -> Response {
        let (account, board) = try await writer(request, context)
        let id = try postID(context)
        guard try await repository.deletePost(id: id, boardID: board.id, accountID: account.id) else {
            throw try await missingOrForbidden(id: id, boardID: board.id)
        }
        return Response(status: .noContent)
    }

    // MARK: - Request parts

    /// An account writing in a writable board (the static token writes nothing).
    private func writer(_ request: Request, _ context: BoardContext) async throws -> (Account, Board) {
        let caller = context.caller
        let board = try await board(context, now: clock.now)
        guard case .account(let account) = caller else { throw BoardError.readOnlyToken }
        guard board.isWritable(by: account) else { throw BoardError.notWritable }
        return (account, board)
    }

    /// After a write that matched nothing: 404 if the post is not there, 403 if it is someone else's.
    private func missingOrForbidden(id: Int, boardID: Int) async throws -> BoardError {
        // A post hidden from the caller is not there for them.
        try await repository.post(id: id, boardID: boardID, visibleTo: nil) == nil ? .postNotFound : .notYourPost
    }

    private func board(_ context: BoardContext, now: Date) async throws -> Board {
        guard let raw = context.parameters.get("boardId"), let id = Int(raw), id > 0,
              let board = try await repository.board(id: id, now: now)
        else { throw BoardError.boardNotFound }
        return board
    }

    private func postID(_ context: BoardContext) throws -> Int {
        guard let raw = context.parameters.get("postId"), let id = Int(raw), id > 0 else { throw BoardError.postNotFound }
        return id
    }

    private func bodyFields(_ request: Request) async throws -> FormFields {
        try await request.bodyFields(limit: maxBodySize, refusal: BoardError.unreadableBody)
    }
}
