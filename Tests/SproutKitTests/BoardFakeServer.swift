import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// An in-memory board server on `FakeServer`: boards, posts newest first with offset/limit and search by target,
/// a post's detail, writing, editing and deleting (only one's own: `isOwner`), every request recorded, failures
/// injectable and answers holdable — for store behaviour a live server cannot show on cue. The live tests check
/// the same flows against the real server.
final class BoardFakeServer: HTTPTransport, @unchecked Sendable {
    // Guarded by `server`'s lock; the routes run with it held.
    private var boards: [BoardJSON]
    /// Oldest first; lists are newest first.
    private var posts: [BoardPostJSON] = []
    private let server = FakeServer(notFound: { _ in BoardFakeServer.error(404) })

    static let base = FakeServer.base

    init(boards: [BoardJSON] = BoardFixture.boards) {
        self.boards = boards
        server.route("GET", "/api/v2/boards") { [unowned self] _ in
            .json(BoardEnvelope(value: self.boards, offset: 0, limit: self.boards.count, total: self.boards.count))
        }
        server.route("GET", "/api/v2/boards/:board/posts") { [unowned self] in self.inBoard($0, self.list) }
        server.route("POST", "/api/v2/boards/:board/posts") { [unowned self] in self.inBoard($0, self.create) }
        server.route(nil, "/api/v2/boards/:board/posts/:post") { [unowned self] in self.inBoard($0, self.post) }
    }

    var client: BoardClient { BoardClient(baseURL: Self.base, token: "test-token", transport: self) }

    /// Adds `count` posts to `boardID` ("글 1" oldest) and returns their ids, oldest first.
    @discardableResult
    func addPosts(_ count: Int, board boardID: Int, title: (Int) -> String = { "글 \($0)" }, writer: String = "writer", isOwner: Bool = false) -> [Int] {
        server.withLock {
            (1...count).map { number in
                let id = (posts.map(\.postId).max() ?? 0) + 1
                posts.append(BoardFixture.post(id: id, boardID: boardID, title: title(number), writer: writer, isOwner: isOwner))
                return id
            }
        }
    }

    func setBoards(_ boards: [BoardJSON]) { server.withLock { self.boards = boards } }

    /// The next request is answered `status` with a `{"message"}` body instead.
    func failNext(status: Int) {
        server.failNext(.answer(.init(status: status, body: Data(#"{"message":"injected failure"}"#.utf8))))
    }

    var requests: [URLRequest] { server.requests }
    var postIDs: [Int] { server.withLock { posts.map(\.postId) } }

    /// Answers are computed (the server acts) but not returned until `release()`.
    func hold() { server.hold() }

    func release() { server.release() }

    /// Waits (briefly) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws { try await server.waitForRequests(count) }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await server.send(request) }

    // MARK: Routes (called with the lock held)

    /// 404 unless `:board` names a board.
    private func inBoard(_ request: FakeRequest, _ handler: (FakeRequest, Int) -> FakeServer.Answer) -> FakeServer.Answer {
        guard let boardID = request.parameters["board"].flatMap(Int.init), boards.contains(where: { $0.boardId == boardID }) else { return Self.error(404) }
        return handler(request, boardID)
    }

    private func post(_ request: FakeRequest, boardID: Int) -> FakeServer.Answer {
        guard let postID = request.parameters["post"].flatMap(Int.init), let index = posts.firstIndex(where: { $0.postId == postID && $0.boardId == boardID })
        else { return Self.error(404) }
        switch request.method {
        case "GET":
            posts[index].viewCount += 1
            return .json(posts[index])
        case "PUT":
            guard posts[index].isOwner else { return Self.error(403) }
            guard let input = request.decode(BoardPostInputJSON.self) else { return Self.error(400) }
            posts[index].title = input.title
            posts[index].contents = input.contents
            return .json(posts[index])
        case "DELETE":
            guard posts[index].isOwner else { return Self.error(403) }
            posts.remove(at: index)
            return .init(status: 204, body: Data())
        default:
            return Self.error(405)
        }
    }

    private func list(_ request: FakeRequest, boardID: Int) -> FakeServer.Answer {
        let query = request.query
        let offset = Int(query["offset"] ?? "0") ?? 0
        let limit = min(100, max(1, Int(query["limit"] ?? "30") ?? 30))
        let search = (query["search"] ?? "").lowercased()
        let target = BoardSearchTarget(rawValue: query["searchTarget"] ?? "all") ?? .all
        let matching: [BoardPostJSON] = posts.reversed().filter { post in
            guard post.boardId == boardID else { return false }
            guard !search.isEmpty else { return true }
            let fields: [String] = switch target {
            case .all: [post.title, post.contents, post.writer.displayName]
            case .title: [post.title]
            case .contents: [post.contents]
            case .writer: [post.writer.displayName]
            }
            return fields.contains { $0.lowercased().contains(search) }
        }
        let page = Array(matching.dropFirst(offset).prefix(limit))
        return .json(BoardEnvelope(value: page, offset: offset, limit: limit, total: matching.count))
    }

    private func create(_ request: FakeRequest, boardID: Int) -> FakeServer.Answer {
        guard boards.first(where: { $0.boardId == boardID })?.capability.writable == true else { return Self.error(403) }
        guard let input = request.decode(BoardPostInputJSON.self) else { return Self.error(400) }
        let id = (posts.map(\.postId).max() ?? 0) + 1
        posts.append(BoardFixture.post(id: id, boardID: boardID, title: input.title, contents: input.contents, writer: "me", isOwner: true))
        return .json(posts.last!, status: 201)
    }

    private static func error(_ status: Int) -> FakeServer.Answer {
        .json(BoardErrorJSON(message: "status \(status)"), status: status)
    }
}
