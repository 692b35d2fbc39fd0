import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// What `BoardClient` sends: paths, methods, the query (Korean search percent-encoded), bodies and the Bearer
/// token; and how `SproutError` sorts failures.
@Suite struct BoardClientTests {
    static func recording(status: Int = 200, _ body: Data) -> (BoardClient, RecordingTransport) {
        let transport = RecordingTransport(status: status, body: body)
        return (BoardClient(baseURL: BoardFakeServer.base, token: "static-token", transport: transport), transport)
    }

    static func emptyPage() throws -> Data {
        try BoardFixture.json(BoardEnvelope<BoardPostJSON>(value: [], offset: 0, limit: 30, total: 0))
    }

    static func postAnswer() throws -> Data {
        try BoardFixture.json(BoardFixture.post(id: 7, boardID: 2, title: "제목"))
    }

    @Test func theStaticTokenIsTheBearerOfEveryCall() async throws {
        let (client, transport) = Self.recording(try BoardFixture.data("boards.reconstructed.json"))
        _ = try await client.boards()
        let request = try #require(transport.requests.first)
        #expect(request.line == "GET /api/v2/boards")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer static-token")
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/json" && request.httpBody == nil)
    }

    @Test func aPageAsksForOffsetAndLimit() async throws {
        let (client, transport) = Self.recording(try Self.emptyPage())
        _ = try await client.posts(boardID: 28478, offset: 60, limit: 30)
        #expect(transport.requests.first?.line == "GET /api/v2/boards/28478/posts?offset=60&limit=30")
        _ = try await client.posts(boardID: 28478)
        #expect(transport.requests.last?.line == "GET /api/v2/boards/28478/posts?offset=0&limit=30")
    }

    @Test(arguments: BoardSearchTarget.allCases)
    func aKoreanSearchIsPercentEncodedWithItsTarget(target: BoardSearchTarget) async throws {
        let (client, transport) = Self.recording(try Self.emptyPage())
        _ = try await client.posts(boardID: 2, offset: 30, search: BoardSearchQuery(text: "공지 & 회의+", target: target))
        let request = try #require(transport.requests.first)
        #expect(request.line == "GET /api/v2/boards/2/posts?offset=30&limit=30&search=%EA%B3%B5%EC%A7%80%20%26%20%ED%9A%8C%EC%9D%98%2B&searchTarget=\(target.rawValue)")
        #expect(BoardFixture.query(request) == ["offset": "30", "limit": "30", "search": "공지 & 회의+", "searchTarget": target.rawValue])
    }

    @Test func anEmptySearchSendsNoSearch() async throws {
        let (client, transport) = Self.recording(try Self.emptyPage())
        _ = try await client.posts(boardID: 2, search: BoardSearchQuery(text: "", target: .title))
        #expect(BoardFixture.query(transport.requests.first) == ["offset": "0", "limit": "30"])
    }

    @Test func aPostIsFetchedByItsPath() async throws {
        let (client, transport) = Self.recording(try Self.postAnswer())
        _ = try await client.post(boardID: 2, postID: 7)
        #expect(transport.requests.first?.line == "GET /api/v2/boards/2/posts/7")
    }

    @Test func writingSendsTitleAndContentsAsJSON() async throws {
        let (client, transport) = Self.recording(status: 201, try Self.postAnswer())
        let post = try await client.createPost(boardID: 2, title: "제목 \"따옴표\"", contents: "줄\n바꿈")
        #expect(post.id == 7)
        let request = try #require(transport.requests.first)
        #expect(request.line == "POST /api/v2/boards/2/posts" && request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.jsonBody as? [String: String] == ["title": "제목 \"따옴표\"", "contents": "줄\n바꿈"])
    }

    @Test func aReplySendsItsParent() async throws {
        let (client, transport) = Self.recording(status: 201, try Self.postAnswer())
        _ = try await client.createPost(boardID: 2, title: "Re", contents: "답글", parentPostID: 5)
        let body = try #require(transport.requests.first?.jsonBody)
        #expect(body["parentPostId"] as? Int == 5 && body["title"] as? String == "Re" && body.count == 3)
    }

    @Test func editingPutsTheNewTitleAndContents() async throws {
        let (client, transport) = Self.recording(try Self.postAnswer())
        _ = try await client.updatePost(boardID: 2, postID: 7, title: "새 제목", contents: "새 내용")
        let request = try #require(transport.requests.first)
        #expect(request.line == "PUT /api/v2/boards/2/posts/7")
        #expect(request.jsonBody as? [String: String] == ["title": "새 제목", "contents": "새 내용"])
    }

    @Test func deletingSendsADeleteAndReadsAnEmpty204() async throws {
        let (client, transport) = Self.recording(status: 204, Data())
        try await client.deletePost(boardID: 2, postID: 7)
        let request = try #require(transport.requests.first)
        #expect(request.line == "DELETE /api/v2/boards/2/posts/7" && request.httpBody == nil)
    }

    @Test func aSessionsClientCarriesTheAccountToken() async throws {
        let transport = RecordingTransport(body: try BoardFixture.data("boards.reconstructed.json"))
        let client = BoardClient(client: APIClient(baseURL: BoardFakeServer.base, transport: transport, tokenProvider: { "account-jwt" }))
        _ = try await client.boards()
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Authorization") == "Bearer account-jwt")
    }

    @Test func errorsAreSortedForTheScreens() async throws {
        func failure(_ status: Int, during operation: SproutError.Operation) async throws -> SproutError {
            let (client, _) = Self.recording(status: status, Data(#"{"message":"Only the post's writer may change it."}"#.utf8))
            do {
                try await client.deletePost(boardID: 2, postID: 7)
            } catch {
                return error.sorted(for: .board, during: operation)
            }
            throw StubError.timedOut
        }
        let forbidden = try await failure(403, during: .delete)
        #expect(forbidden.kind == .forbidden && forbidden.statusCode == 403 && forbidden.serverMessage == "Only the post's writer may change it.")
        #expect(forbidden.message == "내가 쓴 게시글만 수정하거나 삭제할 수 있습니다.")
        #expect(try await failure(403, during: .write).message == "이 게시판에는 글을 쓸 수 없습니다.")
        #expect(try await failure(401, during: .loadPosts).kind == .unauthorized)
        #expect(try await failure(404, during: .loadPost).message == "삭제되었거나 없는 게시글입니다.")
        #expect(try await failure(404, during: .loadPosts).message == "게시판을 찾을 수 없습니다.")
        #expect(try await failure(400, during: .search).message == "검색 결과를 불러오지 못했습니다.")
        #expect(try await failure(500, during: .loadBoards).message == "게시판 목록을 불러오지 못했습니다.")

        let offline = BoardClient(baseURL: BoardFakeServer.base, token: "t", transport: StubTransport { _ in throw URLError(.notConnectedToInternet) })
        await #expect {
            _ = try await offline.boards()
        } throws: { error in
            let sorted = (error as? APIError)?.sorted(for: .board, during: .loadBoards)
            return sorted?.kind == .offline && sorted?.message == "인터넷 연결에 실패하였습니다." && sorted?.message == APIError.connectionFailedMessage
        }
    }
}
