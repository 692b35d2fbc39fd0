import Foundation
import SproutWire
import Observation

/// The SeSAC feed without its UI: posts a page at a time (`_start`/`_limit`), newest or oldest first,
/// pull-to-refresh, and the posts written, edited or deleted elsewhere in the app kept in place.
@MainActor
@Observable
public final class FeedStore {
    /// What the store is waiting for.
    public enum LoadState: Equatable, Sendable {
        case idle
        /// Loading the first page (first load, refresh, a new order); the posts shown stay until it arrives.
        case refreshing
        /// Loading the page after the posts shown.
        case loadingMore
    }

    /// The posts loaded so far, in the order shown.
    public private(set) var posts: [Post] = []
    /// What the store is loading right now.
    public private(set) var loadState: LoadState = .idle
    /// The order in effect: `.newestFirst` (`created_at:desc`) or `.oldestFirst` (`created_at:asc`).
    public private(set) var sort: CommunitySort
    /// Whether the first page of the current order has arrived.
    public private(set) var hasLoaded = false
    /// Whether the last page has arrived (a page came back shorter than `pageSize`).
    public private(set) var reachedEnd = false
    /// The last failure, as a sentence to show; `dismissError()` clears it.
    public private(set) var errorMessage: String?
    /// The last failure as a value.
    public private(set) var lastError: (any Error)?

    /// Posts per page (`_limit`).
    public let pageSize: Int
    private let client: CommunityClient
    /// The `_start` of the next page: the rows of the server's list already seen, moved by the posts created and
    /// deleted here, so a page neither repeats nor skips what this device changed.
    @ObservationIgnored private var nextStart = 0
    @ObservationIgnored private let loads = PageLoadCoordinator()

    /// - Parameters:
    ///   - client: the community API, signed in.
    ///   - pageSize: posts per page, at least 1.
    ///   - sort: the first order.
    public init(client: CommunityClient, pageSize: Int = 20, sort: CommunitySort = .newestFirst) {
        self.client = client
        self.pageSize = max(pageSize, 1)
        self.sort = sort
    }

    /// A feed read as `session`.
    public convenience init(session: Session, pageSize: Int = 20, sort: CommunitySort = .newestFirst) {
        self.init(client: session.community, pageSize: pageSize, sort: sort)
    }

    /// Whether any page is loading.
    public var isLoading: Bool { loadState != .idle }

    /// Whether a later page may exist.
    public var hasMore: Bool { hasLoaded && !reachedEnd }

    // MARK: Loading

    /// Loads the first page again, replacing the posts shown once it arrives (pull to refresh).
    public func refresh() async {
        await restart(clearing: false)
    }

    /// Loads the next page. While a page is loading no second request starts (the call waits for that one);
    /// after the end, nothing is requested.
    public func loadMore() async {
        if await loads.joinRunning() { return }
        guard hasMore else { return }
        await startLoad(.loadingMore)
    }

    /// Loads the next page when `post` is among the last `threshold` shown (call it as rows appear).
    public func loadMoreIfNeeded(currentItem post: Post, threshold: Int = 3) async {
        guard let index = posts.firstIndex(where: { $0.id == post.id }), index >= posts.count - threshold else { return }
        await loadMore()
    }

    /// Switches the order and loads its first page.
    public func setSort(_ newSort: CommunitySort) async {
        sort = newSort
        await restart(clearing: true)
    }

    /// Newest first ↔ oldest first, as the apps' toggle does.
    public func toggleSort() async {
        await setSort(sort == .newestFirst ? .oldestFirst : .newestFirst)
    }

    private func restart(clearing: Bool) async {
        loads.restart()
        if clearing {
            posts = []
            hasLoaded = false
            reachedEnd = false
            nextStart = 0
        }
        await startLoad(.refreshing)
    }

    private func startLoad(_ state: LoadState) async {
        loadState = state
        if await loads.run({ generation in await self.load(state, generation: generation) }) {
            loadState = .idle
        }
    }

    private func load(_ state: LoadState, generation: Int) async {
        let start = state == .refreshing ? 0 : nextStart
        do {
            let page = try await client.posts(start: start, limit: pageSize, sort: sort)
            guard loads.isCurrent(generation), !Task.isCancelled else { return }
            if state == .refreshing {
                posts = page
            } else {
                // Someone else's new post shifts the server's list down: its rows come again, once.
                let shown = Set(posts.map(\.id))
                posts += page.filter { !shown.contains($0.id) }
            }
            nextStart = start + page.count
            reachedEnd = page.count < pageSize
            hasLoaded = true
        } catch .cancelled {
            return
        } catch {
            guard loads.isCurrent(generation) else { return }
            report(error)
        }
    }

    // MARK: Changes made elsewhere

    /// Writes a post and shows it where the current order puts it: at the top when newest first, at the
    /// bottom when oldest first and the end is loaded (otherwise a later page brings it). Returns nil (with
    /// `errorMessage` set) for an empty text or when the server refuses.
    @discardableResult
    public func createPost(text: String) async -> Post? {
        guard CommunityValidation.isValidText(text) else {
            errorMessage = CommunityValidation.emptyTextMessage
            lastError = nil
            return nil
        }
        do {
            let post = try await client.createPost(text: text)
            insert(post)
            return post
        } catch {
            report(error)
            return nil
        }
    }

    /// Shows a post created elsewhere (another screen), where the current order puts it.
    public func insert(_ post: Post) {
        guard hasLoaded, !posts.contains(where: { $0.id == post.id }) else { return }
        if sort == .newestFirst {
            posts.insert(post, at: 0)
            nextStart += 1
        } else if reachedEnd {
            posts.append(post)
            nextStart += 1
        }
    }

    /// Shows the server's newer version of a post (edited, or a comment added) where the post is shown.
    public func replace(_ post: Post) {
        guard let index = posts.firstIndex(where: { $0.id == post.id }) else { return }
        posts[index] = post
    }

    /// Takes a deleted post out of the feed.
    public func remove(postID: Int) {
        guard let index = posts.firstIndex(where: { $0.id == postID }) else { return }
        posts.remove(at: index)
        nextStart -= 1
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        errorMessage = nil
        lastError = nil
    }

    private func report(_ error: APIError) {
        lastError = error
        errorMessage = error.sorted(for: .community).message
    }
}
