import Foundation
import SproutKit
import SproutWire
import Testing

/// `BoardSearchStore`: history with no text, the four target rows for typed text, a search that is remembered and
/// pages its results, a history entry run again, restarts, and the empty texts.
@MainActor
@Suite struct BoardSearchStoreTests {
    static let free = Board(id: 2, name: "자유게시판", writable: true)

    static func store(history: BoardSearchHistory? = nil) throws -> (BoardSearchStore, BoardFakeServer, BoardSearchHistory) {
        let server = BoardFakeServer()
        server.addPosts(40, board: 2, title: { "회의록 \($0)" })
        server.addPosts(3, board: 2, title: { "점심 \($0)" }, writer: "공지봇")
        let history = try history ?? BoardSearchHistory()
        let store = BoardSearchStore(client: server.client, history: history)
        store.setBoard(free)
        return (store, server, history)
    }

    @Test func noTextShowsTheHistoryOrTheHint() throws {
        let (store, server, _) = try Self.store()
        #expect(store.placeholder == "자유게시판에서 검색")
        #expect(store.content == .history && store.history.isEmpty && store.targetRows.isEmpty)
        #expect(store.emptyText == "게시글의 제목, 내용 또는 작성자에 포함된 단어 또는 문장을 검색해주세요.")
        #expect(server.requests.isEmpty)
    }

    @Test func typedTextShowsTheFourTargetRowsWithoutARequest() throws {
        let (store, server, _) = try Self.store()
        store.setText("  회의 ")
        #expect(store.content == .targets && store.emptyText == nil)
        #expect(store.targetRows.map(\.title) == ["전체 : 회의", "제목 : 회의", "내용 : 회의", "작성자 : 회의"])
        #expect(store.targetRows.map(\.target) == [.all, .title, .contents, .writer])
        store.setText("   ")
        #expect(store.content == .history && store.targetRows.isEmpty && server.requests.isEmpty)
    }

    @Test func aRowRunsTheSearchRemembersItAndPagesTheResults() async throws {
        let (store, server, history) = try Self.store()
        store.setText("회의")
        await store.search(in: .title)
        #expect(store.content == .results && store.query == BoardSearchQuery(text: "회의", target: .title))
        #expect(BoardFixture.query(server.requests.last) == ["offset": "0", "limit": "30", "search": "회의", "searchTarget": "title"])
        #expect(store.results.posts.count == 30 && store.results.total == 40 && store.results.hasMore && store.emptyText == nil)
        await store.results.loadMore()
        #expect(BoardFixture.query(server.requests.last)["offset"] == "30" && store.results.posts.count == 40 && !store.results.hasMore)
        #expect(try history.entries().map(\.query) == [BoardSearchQuery(text: "회의", target: .title)])
        #expect(store.history.map(\.text) == ["회의"])
    }

    @Test func theTargetDecidesWhereTheServerLooks() async throws {
        let (store, _, _) = try Self.store()
        store.setText("공지")
        await store.search(in: .title)
        #expect(store.results.posts.isEmpty && store.emptyText == "검색 결과가 없습니다.\n 다른 검색어를 입력해 보세요.")
        await store.search(in: .writer)
        #expect(store.results.posts.map(\.title) == ["점심 3", "점심 2", "점심 1"] && store.emptyText == nil)
        #expect(store.history.map(\.target) == [.writer, .title])
    }

    @Test func aHistoryEntryRestoresItsTextAndTargetAndRunsAgain() async throws {
        let (store, server, history) = try Self.store()
        try history.save(BoardSearchQuery(text: "점심", target: .title))
        try history.save(BoardSearchQuery(text: "회의", target: .contents))
        store.reloadHistory()
        #expect(store.history.map(\.text) == ["회의", "점심"] && store.emptyText == nil)
        await store.select(store.history[1])
        #expect(store.text == "점심" && store.query?.target == .title && store.results.posts.count == 3)
        #expect(BoardFixture.query(server.requests.last)["searchTarget"] == "title")
        #expect(store.history.map(\.text) == ["점심", "회의"])
    }

    @Test func changingTheTextEndsTheResultsAndANewSearchRestarts() async throws {
        let (store, server, _) = try Self.store()
        store.setText("회의")
        await store.search(in: .all)
        store.setText("회의")
        #expect(store.content == .results)
        store.setText("점심")
        #expect(store.content == .targets && store.results.posts.isEmpty && store.query == nil)
        server.hold()
        let slow = Task { await store.search(in: .all) }
        try await server.waitForRequests(2)
        server.release()
        // A newer search while the first answer is on its way: only the newer one lands.
        store.setText("회의록 1")
        await store.search(in: .title)
        await slow.value
        #expect(store.query?.text == "회의록 1" && store.results.posts.allSatisfy { $0.title.hasPrefix("회의록 1") } && store.results.total == 11)
    }

    @Test func historyEntriesAreDeletedOneByOneOrAllAtOnce() async throws {
        let (store, _, history) = try Self.store()
        for text in ["하나", "둘", "셋"] { try history.save(BoardSearchQuery(text: text, target: .all)) }
        store.reloadHistory()
        store.deleteHistory(store.history[1])
        #expect(store.history.map(\.text) == ["셋", "하나"])
        store.clearHistory()
        #expect(try store.history.isEmpty && history.entries().isEmpty && store.emptyText == BoardText.searchHint)
    }

    @Test func anotherBoardGoesBackToTyping() async throws {
        let (store, _, _) = try Self.store()
        store.setText("회의")
        await store.search(in: .all)
        store.setBoard(Board(id: 3, name: "익명게시판"))
        #expect(store.placeholder == "익명게시판에서 검색" && store.content == .targets && store.results.posts.isEmpty)
    }

    @Test func withoutAHistoryStoreSearchesStillRun() async throws {
        let server = BoardFakeServer()
        server.addPosts(2, board: 2)
        let store = BoardSearchStore(client: server.client, history: nil)
        await store.run(BoardSearchQuery(text: "글", target: .all))
        #expect(server.requests.isEmpty)
        store.setBoard(Self.free)
        await store.run(BoardSearchQuery(text: "  ", target: .all))
        #expect(server.requests.isEmpty)
        await store.run(BoardSearchQuery(text: "글", target: .all))
        #expect(store.results.posts.count == 2 && store.history.isEmpty)
    }
}
