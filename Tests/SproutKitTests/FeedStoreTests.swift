import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import Testing

/// The feed: pages by `_start`/`_limit`, the end, the order toggle, and posts changed elsewhere.
@MainActor
@Suite struct FeedStoreTests {
    /// A feed over a server with `count` posts by one account ("post 1" oldest), the server, that account's id,
    /// and a client signed in as it (another screen of the app).
    static func feed(posts count: Int, pageSize: Int = 20) -> (FeedStore, FakeCommunityServer, Int, CommunityClient) {
        let server = FakeCommunityServer()
        let account = server.addAccount(username: "writer")
        if count > 0 { server.addPosts(count, by: account.id) }
        let client = CommunityClient(client: APIClient(baseURL: FakeCommunityServer.base, transport: server, tokenProvider: { account.token }))
        return (FeedStore(client: client, pageSize: pageSize), server, account.id, client)
    }

    static func query(_ request: URLRequest?) -> [String: String] {
        let items = request.flatMap { URLComponents(url: $0.url!, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        return Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
    }

    @Test func refreshLoadsTheNewestPageFirst() async {
        let (feed, server, _, _) = Self.feed(posts: 25)
        #expect(feed.posts.isEmpty && !feed.hasLoaded && !feed.hasMore && feed.loadState == .idle)
        await feed.refresh()
        #expect(Self.query(server.requests.last) == ["_start": "0", "_limit": "20", "_sort": "created_at:desc"])
        #expect(feed.posts.map(\.text) == (6...25).reversed().map { "post \($0)" })
        #expect(feed.hasLoaded && feed.hasMore && !feed.reachedEnd && feed.loadState == .idle)
    }

    @Test func pagesFollowWithStartAndStopWhenAPageComesBackShort() async {
        let (feed, server, _, _) = Self.feed(posts: 45)
        await feed.refresh()
        await feed.loadMore()
        #expect(Self.query(server.requests.last)["_start"] == "20")
        #expect(feed.posts.count == 40 && feed.hasMore)
        await feed.loadMore()
        #expect(Self.query(server.requests.last)["_start"] == "40")
        #expect(feed.posts.count == 45 && feed.reachedEnd && !feed.hasMore)
        #expect(feed.posts.map(\.text) == (1...45).reversed().map { "post \($0)" })
        let sent = server.requests.count
        await feed.loadMore()
        #expect(server.requests.count == sent)
    }

    @Test func aFullLastPageNeedsOneEmptyPageToKnowTheEnd() async {
        let (feed, server, _, _) = Self.feed(posts: 40)
        await feed.refresh()
        await feed.loadMore()
        #expect(feed.posts.count == 40 && feed.hasMore)
        await feed.loadMore()
        #expect(feed.posts.count == 40 && feed.reachedEnd)
        #expect(server.requests.count == 3)
    }

    @Test func aSecondLoadMoreWhileOneRunsSendsNothing() async throws {
        let (feed, server, _, _) = Self.feed(posts: 50)
        await feed.refresh()
        server.hold()
        let first = Task { await feed.loadMore() }
        try await server.waitForRequests(2)
        #expect(feed.loadState == .loadingMore && feed.isLoading)
        let second = Task { await feed.loadMore() }
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requests.count == 2)
        server.release()
        await first.value
        await second.value
        #expect(server.requests.count == 2)
        #expect(feed.posts.count == 40 && feed.loadState == .idle)
    }

    @Test func theOrderToggleStartsAgainOldestFirst() async {
        let (feed, server, _, _) = Self.feed(posts: 30)
        await feed.refresh()
        await feed.toggleSort()
        #expect(feed.sort == .oldestFirst)
        #expect(Self.query(server.requests.last) == ["_start": "0", "_limit": "20", "_sort": "created_at:asc"])
        #expect(feed.posts.map(\.text) == (1...20).map { "post \($0)" })
        await feed.loadMore()
        #expect(feed.posts.map(\.text) == (1...30).map { "post \($0)" } && feed.reachedEnd)
        await feed.toggleSort()
        #expect(feed.sort == .newestFirst && feed.posts.first?.text == "post 30" && feed.posts.count == 20)
    }

    @Test func postsWrittenByOthersBetweenPagesAppearOnce() async {
        let (feed, server, author, _) = Self.feed(posts: 30, pageSize: 10)
        await feed.refresh()
        // Two new posts push the server's newest-first list down by two: the next page repeats two rows.
        server.addPosts(2, by: author, text: { "late \($0)" })
        await feed.loadMore()
        #expect(feed.posts.count == 18)
        #expect(Set(feed.posts.map(\.id)).count == 18)
        #expect(feed.posts.last?.text == "post 13")
    }

    @Test func aPostWrittenHereGoesOnTopAndIsNotRepeatedByTheNextPage() async throws {
        let (feed, server, _, _) = Self.feed(posts: 30, pageSize: 10)
        await feed.refresh()
        let created = try #require(await feed.createPost(text: "새 글 & 인사"))
        #expect(feed.posts.first == created && feed.posts.count == 11)
        #expect(FakeCommunityServer.form(server.requests.last?.httpBody) == ["text": "새 글 & 인사"])
        await feed.loadMore()
        #expect(Self.query(server.requests.last)["_start"] == "11")
        #expect(feed.posts.count == 21 && Set(feed.posts.map(\.id)).count == 21)
        #expect(feed.posts.last?.text == "post 11")
    }

    @Test func aPostDeletedElsewhereLeavesAndPagingSkipsNothing() async throws {
        let (feed, server, _, detailScreen) = Self.feed(posts: 30, pageSize: 10)
        await feed.refresh()
        let gone = feed.posts[3]
        // The detail screen deleted it on the server, then told the feed.
        try await detailScreen.deletePost(id: gone.id)
        feed.remove(postID: gone.id)
        #expect(!feed.posts.contains(gone) && feed.posts.count == 9)
        await feed.loadMore()
        #expect(Self.query(server.requests.last)["_start"] == "9")
        #expect(feed.posts.map(\.text) == (11...30).reversed().filter { $0 != 27 }.map { "post \($0)" })
    }

    @Test func anEmptyTextIsRefusedOnTheDevice() async {
        let (feed, server, _, _) = Self.feed(posts: 0)
        await feed.refresh()
        #expect(await feed.createPost(text: "  \n ") == nil)
        #expect(feed.errorMessage == CommunityValidation.emptyTextMessage)
        #expect(server.requests.count == 1)
    }

    @Test func aFailedRefreshKeepsThePostsShownAndSaysWhy() async {
        let (feed, server, _, _) = Self.feed(posts: 5)
        await feed.refresh()
        server.failNext("GET", "/posts", status: 500, body: #"{"statusCode":500,"error":"Internal Server Error","message":"An internal server error occurred"}"#)
        await feed.refresh()
        #expect(feed.posts.count == 5 && feed.loadState == .idle)
        #expect(feed.errorMessage == "An internal server error occurred")
        #expect((feed.lastError as? APIError)?.statusCode == 500)
        feed.dismissError()
        #expect(feed.errorMessage == nil)
        #expect(server.postTexts.count == 5)
    }

    @Test func anEditMadeElsewhereReplacesThePostInPlace() async throws {
        let (feed, _, _, _) = Self.feed(posts: 3)
        await feed.refresh()
        var edited = feed.posts[1]
        edited.text = "고친 글"
        feed.replace(edited)
        #expect(feed.posts[1].text == "고친 글" && feed.posts.count == 3)
    }
}
