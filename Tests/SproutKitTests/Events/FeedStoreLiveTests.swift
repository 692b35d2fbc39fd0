import Foundation
import SproutKit
import Testing

/// `FeedStore.apply`: the community topic's events change the loaded feed, new posts wait as "새 글 N개".
@MainActor
@Suite struct FeedStoreLiveTests {
    /// The `/posts` element of post `id`, as the server lists it.
    static func item(_ id: Int, from client: CommunityClient) async throws -> Data {
        let list = try await client.client.send(Request<Data>(path: "/posts", query: [("_start", "0"), ("_limit", "-1"), ("_sort", "created_at:desc")]))
        return try LiveFixture.element(of: list, id: id)
    }

    @Test func newPostsWaitAsPendingUntilTheReaderAsks() async throws {
        let (feed, server, author, client) = FeedStoreTests.feed(posts: 3)
        await feed.refresh()
        let shown = feed.posts.map(\.id)
        let first = server.addPosts(1, by: author, text: { _ in "새 글 하나" })[0]
        await feed.apply(LiveFixture.change(.community, "post.created", id: first, item: try await Self.item(first, from: client)))
        // Without item the post is fetched.
        let second = server.addPosts(1, by: author, text: { _ in "새 글 둘" })[0]
        await feed.apply(LiveFixture.change(.community, "post.created", id: second))
        #expect(feed.posts.map(\.id) == shown, "the list does not move under the reader")
        #expect(feed.pendingCount == 2 && feed.pendingText == "새 글 2개")
        feed.showPendingPosts()
        #expect(feed.posts.map(\.text).prefix(2) == ["새 글 둘", "새 글 하나"] && feed.posts.count == 5)
        #expect(feed.pendingCount == 0 && feed.pendingText == nil)
        // The event of a post already shown (written on this device) adds nothing.
        await feed.apply(LiveFixture.change(.community, "post.created", id: second))
        #expect(feed.pendingCount == 0 && feed.posts.count == 5)
    }

    @Test func oldestFirstANewPostGoesToTheLoadedEnd() async throws {
        let (feed, server, author, client) = FeedStoreTests.feed(posts: 3)
        await feed.setSort(.oldestFirst)
        let id = server.addPosts(1, by: author)[0]
        await feed.apply(LiveFixture.change(.community, "post.created", id: id, item: try await Self.item(id, from: client)))
        #expect(feed.posts.last?.id == id && feed.pendingCount == 0)
    }

    @Test func anEditReplacesADeletionRemovesAndARestoredPostReturnsInOrder() async throws {
        let (feed, _, _, client) = FeedStoreTests.feed(posts: 4)
        await feed.refresh()
        let target = feed.posts[1]
        _ = try await client.updatePost(id: target.id, text: "고친 글")
        await feed.apply(LiveFixture.change(.community, "post.updated", id: target.id, item: try await Self.item(target.id, from: client)))
        #expect(feed.posts[1].text == "고친 글" && feed.posts.count == 4)
        await feed.apply(LiveFixture.change(.community, "post.deleted", id: target.id))
        #expect(!feed.posts.contains { $0.id == target.id } && feed.posts.count == 3)
        // Restored by a moderator: `updated` for a post not shown puts it back where its date puts it.
        await feed.apply(LiveFixture.change(.community, "post.updated", id: target.id, item: try await Self.item(target.id, from: client)))
        #expect(feed.posts.map(\.id)[1] == target.id && feed.posts.count == 4)
    }

    @Test func aCommentReReadsItsPost() async throws {
        let (feed, server, author, _) = FeedStoreTests.feed(posts: 2)
        await feed.refresh()
        let post = feed.posts[0]
        #expect(post.comments.isEmpty)
        let comment = server.addComment("댓글", by: author, on: post.id)
        await feed.apply(LiveFixture.change(.community, "comment.created", id: comment, parent: post.id))
        #expect(feed.posts[0].comments.map(\.id) == [comment])
    }

    @Test func aResetReloadsAndOtherTopicsAreIgnored() async throws {
        let (feed, server, author, _) = FeedStoreTests.feed(posts: 2)
        await feed.refresh()
        let id = server.addPosts(1, by: author)[0]
        await feed.apply(LiveFixture.change(.market, "post.created", id: id))
        #expect(feed.pendingCount == 0 && feed.posts.count == 2)
        let sent = server.requests.count
        await feed.apply(.reset(topic: "community"))
        #expect(server.requests.count == sent + 1 && feed.posts.first?.id == id && feed.posts.count == 3)
    }

    @Test func followingAStreamAppliesItsFrames() async throws {
        let (feed, server, author, client) = FeedStoreTests.feed(posts: 2)
        await feed.refresh()
        let id = server.addPosts(1, by: author, text: { _ in "스트림으로 온 글" })[0]
        let frame = try LiveFixture.frame(.community, "post.created", seq: 3, id: id, item: try await Self.item(id, from: client))
        let transport = ScriptedEventTransport([.stayOpen(chunks: ["event: ready\nid: community=2\ndata: {\"topics\":{\"community\":2}}\n\n", frame])])
        let sent = server.requests.count
        let following = Task { try await feed.follow(EventStream(client: client.client, topics: [.community], transport: transport)) }
        try await eventuallyOnMain { feed.pendingCount == 1 }
        following.cancel()
        #expect(feed.pendingPosts.first?.text == "스트림으로 온 글")
        #expect(server.requests.count == sent, "the frame's item was read, not fetched")
    }
}
