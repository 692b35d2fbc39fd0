import Foundation
import SproutKit
import SproutWire
import Testing

/// The contract's reconstructed answers (`shared/fixtures/board`) decode through `BoardClient` into the kit's
/// models, dates included.
@Suite struct BoardContractTests {
    static func client(answering fixture: String) throws -> BoardClient {
        BoardClient(baseURL: BoardFakeServer.base, token: "t", transport: RecordingTransport(body: try BoardFixture.data(fixture)))
    }

    @Test func theBoardsFixtureDecodesEveryField() async throws {
        let boards = try await Self.client(answering: "boards.reconstructed.json").boards()
        #expect(boards == [
            Board(id: 28478, name: "공지사항", type: .normal, writable: true, hasNewPost: true, orderNo: 1, manageable: true),
            Board(id: 27854, name: "읽기권한only", type: .normal, writable: false, hasNewPost: false, orderNo: 2),
        ])
    }

    @Test func thePostsFixtureDecodesEveryFieldAndItsDates() async throws {
        let page = try await Self.client(answering: "posts.reconstructed.json").posts(boardID: 27854)
        #expect(page.offset == 0 && page.limit == 30 && page.total == 2 && !page.hasMore)
        try #require(page.posts.count == 2)
        let notice = page.posts[0]
        #expect(notice.id == 1593021 && notice.title == "공지" && notice.boardID == 27854 && notice.boardName == "읽기권한only")
        #expect(notice.writer == BoardWriter(name: "작성자_TEST", email: "writerTest@mailplug.co.kr"))
        #expect(notice.contents == "공지게시글입니다. \\n\\n안녕하세요. 만나서 반갑습니다.")
        // 2023-06-05T03:31:22Z
        #expect(notice.createdAt == Date(timeIntervalSince1970: 1_685_935_882))
        #expect(notice.viewCount == 11 && notice.postType == .notice && notice.isNotice && !notice.isReply)
        #expect(!notice.isNew && notice.hasInlineImage && notice.hasAttachment && notice.attachmentsCount == 1)
        #expect(!notice.isAnonymous && !notice.isOwner && !notice.hasReply && notice.parentPostID == nil)
        let reply = page.posts[1]
        #expect(reply.isReply && reply.isNew && reply.isOwner && !reply.hasAttachment && reply.parentPostID == 1593021)
        #expect(reply.createdAt == Date(timeIntervalSince1970: 1_686_013_323))
        #expect(BoardText.rowDate(reply.createdAt, timeZone: TimeZone(identifier: "Asia/Seoul")!) == "23-06-06")
        #expect(BoardText.rowDate(notice.createdAt, timeZone: TimeZone(identifier: "UTC")!) == "23-06-05")
    }

    @Test func aPostAloneDecodesAsInAList() async throws {
        let json = BoardFixture.post(id: 5, boardID: 2, title: "제목")
        let client = BoardClient(baseURL: BoardFakeServer.base, token: "t", transport: RecordingTransport(body: try BoardFixture.json(json)))
        let post = try await client.post(boardID: 2, postID: 5)
        #expect(post.id == 5 && post.title == "제목" && post.createdAt == BoardTimestamp.date(from: BoardFixture.created))
    }

    @Test func aDateThatIsNoBoardTimestampIsADecodingFailure() async throws {
        var json = BoardFixture.post(id: 5, boardID: 2, title: "제목")
        json.createdDateTime = "2023-06-05 03:31:22"
        let client = BoardClient(baseURL: BoardFakeServer.base, token: "t", transport: RecordingTransport(body: try BoardFixture.json(json)))
        await #expect {
            try await client.post(boardID: 2, postID: 5)
        } throws: { error in
            guard case .decoding = error as? APIError else { return false }
            return true
        }
    }

    @Test func unknownTypesAreKeptAsTheyCame() async throws {
        var board = BoardFixture.board(id: 9, name: "이상한")
        board.boardType = "gallery"
        let client = BoardClient(baseURL: BoardFakeServer.base, token: "t", transport: RecordingTransport(
            body: try BoardFixture.json(BoardEnvelope(value: [board], offset: 0, limit: 1, total: 1))
        ))
        #expect(try await client.boards().first?.type == BoardType(rawValue: "gallery"))
    }
}
