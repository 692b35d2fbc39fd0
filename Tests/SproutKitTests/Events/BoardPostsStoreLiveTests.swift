import Foundation
import SproutKit
import Testing

/// `BoardPostsStore.apply`: the shown board's topic changes its loaded list.
@MainActor
@Suite struct BoardPostsStoreLiveTests {
    /// The list element of post `id` of board 2, as the server lists it.
    static func item(_ id: Int, from server: BoardFakeServer) async throws -> Data {
        let list = try await server.client.client.send(Request<Data>(path: "/api/v2/boards/2/posts", query: [("offset", "0"), ("limit", "100")]))
        return try LiveFixture.element(of: list, under: "value", idKey: "postId", id: id)
    }

    @Test func createdUpdatedAndDeletedPostsChangeTheList() async throws {
        let (store, server) = BoardPostsStoreTests.store(posts: 3)
        await store.show(BoardPostsStoreTests.free)
        let new = server.addPosts(1, board: 2, title: { _ in "새 글" })[0]
        await store.apply(LiveFixture.change(.board(2), "board-post.created", id: new, item: try await Self.item(new, from: server)))
        #expect(store.list.posts.map(\.id) == [4, 3, 2, 1] && store.list.posts[0].title == "새 글" && store.list.total == 4)

        let edited = try LiveFixture.edited(try await Self.item(2, from: server), ["title": "고친 제목"])
        await store.apply(LiveFixture.change(.board(2), "board-post.updated", id: 2, item: edited))
        #expect(store.list.posts.first { $0.id == 2 }?.title == "고친 제목" && store.list.posts.count == 4)

        await store.apply(LiveFixture.change(.board(2), "board-post.deleted", id: 3))
        #expect(store.list.posts.map(\.id) == [4, 2, 1] && store.list.total == 3)
        // Restored: `updated` for a post not shown puts it back in newest-first order.
        await store.apply(LiveFixture.change(.board(2), "board-post.updated", id: 3, item: try await Self.item(3, from: server)))
        #expect(store.list.posts.map(\.id) == [4, 3, 2, 1] && store.list.total == 4)
    }

    @Test func anotherBoardsEventsAreIgnoredAndAResetReloads() async throws {
        let (store, server) = BoardPostsStoreTests.store(posts: 2)
        await store.show(BoardPostsStoreTests.free)
        let new = server.addPosts(1, board: 2)[0]
        await store.apply(LiveFixture.change(.board(3), "board-post.created", id: new, item: try await Self.item(new, from: server)))
        #expect(store.list.posts.map(\.id) == [2, 1])
        await store.apply(.reset(topic: "board:2"))
        #expect(store.list.posts.map(\.id) == [3, 2, 1] && store.list.total == 3)
    }

    @Test func aCreatedEventWithoutItemFetchesThePost() async throws {
        let (store, server) = BoardPostsStoreTests.store(posts: 2)
        await store.show(BoardPostsStoreTests.free)
        let new = server.addPosts(1, board: 2, title: { _ in "읽어 온 글" })[0]
        await store.apply(LiveFixture.change(.board(2), "board-post.created", id: new))
        #expect(store.list.posts.first?.title == "읽어 온 글")
        #expect(server.requests.last?.url?.path == "/api/v2/boards/2/posts/\(new)")
    }

    @Test func followingAStreamReadsTheItemInsideTheFrame() async throws {
        let (store, server) = BoardPostsStoreTests.store(posts: 2)
        await store.show(BoardPostsStoreTests.free)
        let id = server.addPosts(1, board: 2, title: { _ in "스트림 글" }, isOwner: true)[0]
        let item = try LiveFixture.edited(try await Self.item(id, from: server), ["isPinned": true, "isNewPost": true])
        let transport = ScriptedEventTransport([.stayOpen(chunks: [try LiveFixture.frame(.board(2), "board-post.created", seq: 3, id: id, item: item)])])
        let sent = server.requests.count
        let following = Task { try await store.follow(EventStream(client: server.client.client, topics: [.board(2)], transport: transport)) }
        try await eventuallyOnMain { store.list.posts.count == 3 }
        following.cancel()
        let post = try #require(store.list.posts.first)
        #expect(post.title == "스트림 글" && post.isOwner && post.isPinned && post.isNew)
        #expect(server.requests.count == sent, "the frame's item was read, not fetched")
    }
}
