import Foundation
import SproutKit
import SproutWire
import Testing

/// `BoardPostsStore`: offset paging of 30 until `total`, one load at a time, refresh, a board change that starts
/// a fresh list, and the empty state.
@MainActor
@Suite struct BoardPostsStoreTests {
    static let free = Board(id: 2, name: "자유게시판", writable: true)
    static let anonymous = Board(id: 3, name: "익명게시판", type: .anonymous, writable: true)

    static func store(posts count: Int) -> (BoardPostsStore, BoardFakeServer) {
        let server = BoardFakeServer()
        if count > 0 { server.addPosts(count, board: 2) }
        return (BoardPostsStore(client: server.client), server)
    }

    @Test func pagesOf30UntilTheTotalThenNothingMore() async {
        let (store, server) = Self.store(posts: 65)
        #expect(store.list.posts.isEmpty && !store.list.hasLoaded && store.emptyText == nil && store.list.pageSize == 30)
        await store.show(Self.free)
        #expect(BoardFixture.query(server.requests.last) == ["offset": "0", "limit": "30"])
        #expect(store.list.posts.map(\.id) == Array((36...65).reversed()) && store.list.total == 65 && store.list.hasMore)
        await store.list.loadMore()
        #expect(BoardFixture.query(server.requests.last) == ["offset": "30", "limit": "30"])
        await store.list.loadMore()
        #expect(BoardFixture.query(server.requests.last) == ["offset": "60", "limit": "30"])
        #expect(store.list.posts.map(\.id) == Array((1...65).reversed()) && !store.list.hasMore && store.list.loadState == .idle)
        let sent = server.requests.count
        await store.list.loadMore()
        #expect(server.requests.count == sent)
    }

    @Test func loadMoreBeforeAnyBoardSendsNothing() async {
        let (store, server) = Self.store(posts: 5)
        await store.list.loadMore()
        await store.list.refresh()
        #expect(server.requests.isEmpty)
    }

    @Test func aSecondLoadMoreWhileOneRunsSendsNothing() async throws {
        let (store, server) = Self.store(posts: 65)
        await store.show(Self.free)
        server.hold()
        let first = Task { await store.list.loadMore() }
        try await server.waitForRequests(2)
        #expect(store.list.loadState == .loadingMore && store.list.isLoading)
        let second = Task { await store.list.loadMore() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.requests.count == 2)
        server.release()
        await first.value
        await second.value
        #expect(server.requests.count == 2 && store.list.posts.count == 60)
    }

    @Test func loadMoreIfNeededWaitsForTheLastRows() async {
        let (store, server) = Self.store(posts: 40)
        await store.show(Self.free)
        await store.list.loadMoreIfNeeded(currentItem: store.list.posts[10])
        #expect(server.requests.count == 1)
        await store.list.loadMoreIfNeeded(currentItem: store.list.posts[27])
        #expect(server.requests.count == 2 && store.list.posts.count == 40)
    }

    @Test func refreshStartsAgainAtOffsetZero() async {
        let (store, server) = Self.store(posts: 40)
        await store.show(Self.free)
        await store.list.loadMore()
        server.addPosts(1, board: 2, title: { _ in "새 글" })
        await store.list.refresh()
        #expect(BoardFixture.query(server.requests.last)["offset"] == "0")
        #expect(store.list.posts.count == 30 && store.list.posts.first?.title == "새 글" && store.list.total == 41)
        await store.list.loadMore()
        #expect(store.list.posts.count == 41 && !store.list.hasMore)
    }

    @Test func anotherBoardClearsTheListAndDropsTheOldAnswer() async throws {
        let (store, server) = Self.store(posts: 40)
        server.addPosts(3, board: 3, title: { "익명 \($0)" })
        await store.show(Self.free)
        server.hold()
        let stale = Task { await store.list.loadMore() }
        try await server.waitForRequests(2)
        server.release()
        await store.show(Self.anonymous)
        await stale.value
        #expect(store.board == Self.anonymous && store.list.posts.map(\.title) == ["익명 3", "익명 2", "익명 1"] && store.list.total == 3)
        #expect(server.requests.last?.url?.path == "/api/v2/boards/3/posts" && !store.list.hasMore)
    }

    @Test func theBoardChangeIsVisibleAtOnce() async throws {
        let (store, server) = Self.store(posts: 40)
        await store.show(Self.free)
        server.hold()
        let change = Task { await store.show(Self.anonymous) }
        try await server.waitForRequests(2)
        #expect(store.list.posts.isEmpty && !store.list.hasLoaded && store.list.loadState == .refreshing && store.list.total == 0)
        server.release()
        await change.value
        #expect(store.list.hasLoaded && store.emptyText == "등록된 게시글이 없습니다.")
    }

    @Test func aFailureSaysWhyAndShowsNoEmptyText() async {
        let (store, server) = Self.store(posts: 0)
        server.failNext(status: 404)
        await store.show(Board(id: 2, name: "자유게시판"))
        #expect(store.list.errorMessage == "게시판을 찾을 수 없습니다." && store.emptyText == nil && !store.list.hasLoaded)
        await store.list.refresh()
        #expect(store.list.errorMessage == nil && store.emptyText == BoardText.noPosts)
    }

    @Test func otherScreensChangesShowInTheList() async {
        let (store, server) = Self.store(posts: 3)
        await store.show(Self.free)
        var edited = store.list.posts[1]
        edited.title = "고친 제목"
        store.list.replace(edited)
        #expect(store.list.posts[1].title == "고친 제목")
        store.list.remove(postID: edited.id)
        #expect(store.list.posts.count == 2 && store.list.total == 2)
        let written = BoardPost(id: 100, boardID: 2, boardName: "자유게시판", title: "새 글", contents: "c", writer: BoardWriter(name: "me", email: ""), createdAt: Date())
        store.insert(written)
        store.insert(BoardPost(id: 101, boardID: 3, boardName: "익명게시판", title: "다른 게시판", contents: "c", writer: BoardWriter(name: "익명", email: ""), createdAt: Date()))
        #expect(store.list.posts.map(\.id) == [100, 3, 1] && store.list.total == 3)
        _ = server
    }
}
