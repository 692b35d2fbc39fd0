import Foundation
import HTTPTypes
import SproutWire
import Testing
@testable import SproutServer

/// The Mail Plug board API as its app decodes it: the envelope, boards, posts, dates, auth, paging and errors.
@Suite struct BoardContractTests {
    /// HyeonjunKKang's DTOs: every field non-optional, dates read by `ISO8601DateFormatter`.
    struct AppBoards: Decodable {
        let value: [Board], count: Int, offset: Int, limit: Int, total: Int
        struct Board: Decodable {
            let boardId: Int, displayName: String, boardType: String, isFavorite: Bool, hasNewPost: Bool, orderNo: Int
            let capability: Capability
            struct Capability: Decodable { let writable: Bool, manageable: Bool }
        }
    }

    struct AppPosts: Decodable {
        let value: [Post], count: Int, offset: Int, limit: Int, total: Int
        struct Post: Decodable {
            let postId: Int, title: String, boardId: Int, boardDisplayName: String, writer: Writer, contents: String
            let createdDateTime: String, viewCount: Int, postType: String, isNewPost: Bool, hasInlineImage: Bool
            let commentsCount: Int, attachmentsCount: Int, isAnonymous: Bool, isOwner: Bool, hasReply: Bool, parentPostId: Int?
            struct Writer: Decodable { let displayName: String, emailAddress: String }
        }
    }

    @Test func fixturesDecodeThroughTheSharedWireTypes() throws {
        let boards = try JSONDecoder().decode(BoardEnvelope<BoardJSON>.self, from: JSONEncoder().encode(try Fixture.json("board/boards.reconstructed.json")))
        #expect(boards.value.first?.boardId == 28478 && boards.total == 2)
        let posts = try JSONDecoder().decode(BoardEnvelope<BoardPostJSON>.self, from: JSONEncoder().encode(try Fixture.json("board/posts.reconstructed.json")))
        #expect(posts.value.count == 2 && posts.value[1].parentPostId == 1593021)
        #expect(BoardTimestamp.date(from: posts.value[0].createdDateTime) != nil)
    }

    @Test func everyCallNeedsABearerToken() async throws {
        try await withTestApp { client, _ in
            for path in ["/api/v2/boards", "/api/v2/boards/1/posts", "/api/v2/boards/1/posts/1"] {
                let none = try await client.send(.get, path)
                #expect(none.status == .unauthorized && none.json?["message"]?.string != nil, "\(path)")
                let wrong = try await client.send(.get, path, headers: [.authorization: "Bearer not-a-token"])
                #expect(wrong.status == .unauthorized, "\(path)")
            }
        }
    }

    @Test func aFreshServerHasTheSeedBoardsInOrder() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("reader")
            let response = try await client.raw(.get, "/api/v2/boards", headers: account.bearer)
            #expect(response.status == .ok)
            let boards = try JSONDecoder().decode(AppBoards.self, from: Data(response.body))
            #expect(boards.value.map(\.displayName) == ["공지사항", "자유게시판", "익명게시판"])
            #expect(boards.value.map(\.boardType) == ["notice", "normal", "anonymous"])
            #expect(boards.value.map(\.capability.writable) == [false, true, true])
            #expect(boards.count == 3 && boards.total == 3 && boards.offset == 0)
            #expect(boards.value.allSatisfy { !$0.hasNewPost })
            try await client.writePost("첫 글", "안녕하세요", as: account)
            let after = try await client.send(.get, "/api/v2/boards", headers: account.bearer)
            #expect(after.json?["value"]?[1]?["hasNewPost"] == .bool(true))
        }
    }

    @Test func postsAreNewestFirstInTheAppsShape() async throws {
        try await withTestApp { client, _ in
            let writer = try await client.signUp("writer")
            let reader = try await client.signUp("reader")
            var ids: [Int] = []
            for number in 1...5 { ids.append(try #require(try await client.writePost("글 \(number)", "내용 \(number)\n둘째 줄", as: writer)["postId"]?.int)) }
            let response = try await client.raw(.get, "/api/v2/boards/\(SeedBoard.free)/posts?offset=1&limit=2", headers: reader.bearer)
            let page = try JSONDecoder().decode(AppPosts.self, from: Data(response.body))
            #expect(page.value.map(\.postId) == [ids[3], ids[2]])
            #expect(page.count == 2 && page.offset == 1 && page.limit == 2 && page.total == 5)
            let post = page.value[0]
            // Another reader sees the writer's address masked (EmailPrivacyTests).
            #expect(post.writer.displayName == "writer" && post.writer.emailAddress == "w***@example.com")
            #expect(post.contents == "내용 4\n둘째 줄" && post.boardDisplayName == "자유게시판" && post.postType == "normal")
            #expect(post.isNewPost && !post.isOwner && !post.isAnonymous && !post.hasReply && post.parentPostId == nil)
            #expect(ISO8601DateFormatter().date(from: post.createdDateTime) != nil)
            #expect(post.createdDateTime.count == 20)
            let mine = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts", headers: writer.bearer)
            #expect(mine.json?["value"]?[0]?["isOwner"] == .bool(true) && mine.json?["limit"]?.int == 30)
        }
    }

    @Test func pagesCutFromEitherEndCoverTheBoardOnce() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("ends")
            var ids: [Int] = []
            for number in 1...7 { ids.append(try #require(try await client.writePost("글 \(number)", "내용", as: account)["postId"]?.int)) }
            try await client.writePost("다른 게시판", "내용", board: SeedBoard.anonymous, as: account)
            var seen: [Int] = []
            for offset in stride(from: 0, to: 7, by: 3) {
                let response = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts?offset=\(offset)&limit=3", headers: account.bearer)
                seen += response.json?["value"]?.array?.compactMap { $0["postId"]?.int } ?? []
            }
            #expect(seen == ids.reversed())
            let odd = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts?offset=5&limit=30", headers: account.bearer)
            #expect(odd.json?["value"]?.array?.compactMap { $0["postId"]?.int } == [ids[1], ids[0]])
        }
    }

    @Test func pagingValuesAreCheckedAndClamped() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("pager")
            let base = "/api/v2/boards/\(SeedBoard.free)/posts"
            #expect(try await client.send(.get, "\(base)?limit=1000", headers: account.bearer).json?["limit"]?.int == 100)
            #expect(try await client.send(.get, "\(base)?limit=0", headers: account.bearer).json?["limit"]?.int == 1)
            for bad in ["offset=-1", "offset=abc", "limit=-5", "limit=ten", "searchTarget=body", "search=x&searchTarget=TITLE"] {
                let response = try await client.send(.get, "\(base)?\(bad)", headers: account.bearer)
                #expect(response.status == .badRequest && response.json?["message"]?.string != nil, "\(bad)")
            }
            let past = try await client.send(.get, "\(base)?offset=500", headers: account.bearer)
            #expect(past.status == .ok && past.json?["value"] == .array([]) && past.json?["count"]?.int == 0)
            for path in ["/api/v2/boards/999/posts", "/api/v2/boards/abc/posts", "/api/v2/boards/\(SeedBoard.free)/posts/999"] {
                #expect(try await client.send(.get, path, headers: account.bearer).status == .notFound, "\(path)")
            }
        }
    }

    @Test func theStaticTokenReadsEverythingAndWritesNothing() async throws {
        let token = "mailplug-static-token-0123456789"
        try await withTestApp(configure: { $0.board.apiToken = token }) { client, _ in
            let writer = try await client.signUp("writer")
            let id = try #require(try await client.writePost("공개 글", "누구나 읽어요", as: writer)["postId"]?.int)
            let bearer: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
            let boards = try await client.send(.get, "/api/v2/boards", headers: bearer)
            #expect(boards.status == .ok && boards.json?["value"]?[1]?["capability"]?["writable"] == .bool(false))
            let list = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts", headers: bearer)
            #expect(list.json?["value"]?[0]?["isOwner"] == .bool(false))
            #expect(try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts/\(id)", headers: bearer).status == .ok)
            let write = try await client.send(.post, "/api/v2/boards/\(SeedBoard.free)/posts", headers: bearer, body: #"{"title": "t", "contents": "c"}"#)
            #expect(write.status == .forbidden)
            #expect(try await client.send(.delete, "/api/v2/boards/\(SeedBoard.free)/posts/\(id)", headers: bearer).status == .forbidden)
            let almost = try await client.send(.get, "/api/v2/boards", headers: [.authorization: "Bearer \(token)x"])
            #expect(almost.status == .unauthorized)
        }
    }
}
