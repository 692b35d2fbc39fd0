import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// An in-memory board server behind the kit's transport seam: boards, posts newest first with offset/limit and
/// search by target, a post's detail, writing, editing and deleting (only one's own: `isOwner`), every request
/// recorded, failures injectable and answers holdable — for store behaviour a live server cannot show on cue. The
/// live tests check the same flows against the real server.
final class BoardFakeServer: HTTPTransport, @unchecked Sendable {
    // Every property below is guarded by `lock`.
    private let lock = NSLock()
    private var boards: [BoardJSON]
    /// Oldest first; lists are newest first.
    private var posts: [BoardPostJSON] = []
    private var sent: [URLRequest] = []
    private var failures: [Int] = []
    private let gate = AnswerGate()

    static let base = URL(string: "http://127.0.0.1:9")!

    init(boards: [BoardJSON] = BoardFixture.boards) {
        self.boards = boards
    }

    var client: BoardClient { BoardClient(baseURL: Self.base, token: "test-token", transport: self) }

    /// Adds `count` posts to `boardID` ("글 1" oldest) and returns their ids, oldest first.
    @discardableResult
    func addPosts(_ count: Int, board boardID: Int, title: (Int) -> String = { "글 \($0)" }, writer: String = "writer", isOwner: Bool = false) -> [Int] {
        lock.withLock {
            (1...count).map { number in
                let id = (posts.map(\.postId).max() ?? 0) + 1
                posts.append(BoardFixture.post(id: id, boardID: boardID, title: title(number), writer: writer, isOwner: isOwner))
                return id
            }
        }
    }

    func setBoards(_ boards: [BoardJSON]) { lock.withLock { self.boards = boards } }

    /// The next request is answered `status` with a `{"message"}` body instead.
    func failNext(status: Int) { lock.withLock { failures.append(status) } }

    var requests: [URLRequest] { lock.withLock { sent } }
    var postIDs: [Int] { lock.withLock { posts.map(\.postId) } }

    /// Answers are computed (the server acts) but not returned until `release()`.
    func hold() { gate.hold() }

    func release() { gate.release() }

    /// Waits (briefly) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws {
        try await eventually { self.lock.withLock { self.sent.count >= count } }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (status, body) = lock.withLock { () -> (Int, Data) in
            sent.append(request)
            if !failures.isEmpty { return (failures.removeFirst(), Data(#"{"message":"injected failure"}"#.utf8)) }
            return answer(request)
        }
        await gate.passThrough()
        return (body, HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!)
    }

    // MARK: Routes (called with the lock held)

    private func answer(_ request: URLRequest) -> (Int, Data) {
        let parts = request.url!.path.split(separator: "/").map(String.init)
        let method = request.httpMethod ?? "GET"
        guard parts.count >= 3, parts[0...2] == ["api", "v2", "boards"] else { return error(404) }
        if parts.count == 3 { return ok(BoardEnvelope(value: boards, offset: 0, limit: boards.count, total: boards.count)) }
        guard let boardID = Int(parts[3]), boards.contains(where: { $0.boardId == boardID }), parts.count >= 5, parts[4] == "posts" else { return error(404) }
        if parts.count == 5 {
            return method == "POST" ? create(request, boardID: boardID) : list(request, boardID: boardID)
        }
        guard let postID = Int(parts[5]), let index = posts.firstIndex(where: { $0.postId == postID && $0.boardId == boardID }) else { return error(404) }
        switch method {
        case "GET":
            posts[index].viewCount += 1
            return ok(posts[index])
        case "PUT":
            guard posts[index].isOwner else { return error(403) }
            guard let input = try? JSONDecoder().decode(BoardPostInputJSON.self, from: request.httpBody ?? Data()) else { return error(400) }
            posts[index].title = input.title
            posts[index].contents = input.contents
            return ok(posts[index])
        case "DELETE":
            guard posts[index].isOwner else { return error(403) }
            posts.remove(at: index)
            return (204, Data())
        default:
            return error(405)
        }
    }

    private func list(_ request: URLRequest, boardID: Int) -> (Int, Data) {
        let query = BoardFixture.query(request)
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
        return ok(BoardEnvelope(value: page, offset: offset, limit: limit, total: matching.count))
    }

    private func create(_ request: URLRequest, boardID: Int) -> (Int, Data) {
        guard boards.first(where: { $0.boardId == boardID })?.capability.writable == true else { return error(403) }
        guard let input = try? JSONDecoder().decode(BoardPostInputJSON.self, from: request.httpBody ?? Data()) else { return error(400) }
        let id = (posts.map(\.postId).max() ?? 0) + 1
        posts.append(BoardFixture.post(id: id, boardID: boardID, title: input.title, contents: input.contents, writer: "me", isOwner: true))
        return (201, try! JSONEncoder().encode(posts.last!))
    }

    private func ok<Value: Encodable>(_ value: Value) -> (Int, Data) {
        (200, try! JSONEncoder().encode(value))
    }

    private func error(_ status: Int) -> (Int, Data) {
        (status, try! JSONEncoder().encode(BoardErrorJSON(message: "status \(status)")))
    }
}
