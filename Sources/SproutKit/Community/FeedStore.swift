import Foundation
import SproutWire
import Observation

/// The SeSAC feed without its UI: posts a page at a time (`_start`/`_limit`), newest or oldest first,
/// pull-to-refresh, and the posts written, edited or deleted elsewhere in the app kept in place.
@MainActor
@Observable
public final class FeedStore {
    /// What the store is waiting for: the first page (`refreshing`: first load, refresh, a new order — the posts
    /// shown stay until it arrives) or the page after the posts shown (`loadingMore`).
    public typealias LoadState = PageLoadState

    /// The posts loaded so far, in the order shown.
    public var posts: [Post] { pages.items }
    /// What the store is loading right now.
    public var loadState: LoadState { pages.loadState }
    /// The order in effect: `.newestFirst` (`created_at:desc`) or `.oldestFirst` (`created_at:asc`).
    public private(set) var sort: CommunitySort
    /// Whether the first page of the current order has arrived.
    public var hasLoaded: Bool { pages.hasLoaded }
    /// Whether the last page has arrived (a page came back shorter than `pageSize`).
    public var reachedEnd: Bool { pages.hasLoaded && !pages.pageSaidMore }
    /// The last failure, as a sentence to show; `dismissError()` clears it.
    public private(set) var errorMessage: String?
    /// The last failure as a value.
    public private(set) var lastError: (any Error)?

    /// Posts per page (`_limit`).
    public let pageSize: Int
    let client: CommunityClient
    /// Posts that live updates announced while the list shows the newest first, held back until
    /// `showPendingPosts()` so the list does not move under the reader; newest first.
    public internal(set) var pendingPosts: [Post] = []
    /// The posts, paged by `_start`: the next page starts at the rows of the server's list already seen, moved by
    /// the posts created and deleted here, so a page neither repeats nor skips what this device changed.
    let pages = PagedList<Post>()

    /// - Parameters:
    ///   - client: the community API, signed in.
    ///   - pageSize: posts per page, at least 1.
    ///   - sort: the first order.
    public init(client: CommunityClient, pageSize: Int = 20, sort: CommunitySort = .newestFirst) {
        self.client = client
        self.pageSize = max(pageSize, 1)
        self.sort = sort
        pages.onFailure = { [weak self] error in self?.report(error) }
    }

    /// A feed read as `session`.
    public convenience init(session: Session, pageSize: Int = 20, sort: CommunitySort = .newestFirst) {
        self.init(client: session.community, pageSize: pageSize, sort: sort)
    }

    /// Whether any page is loading.
    public var isLoading: Bool { pages.isLoading }

    /// Whether a later page may exist.
    public var hasMore: Bool { pages.hasMore }

    // MARK: Loading

    /// Loads the first page again, replacing the posts shown once it arrives (pull to refresh).
    public func refresh() async {
        // The first page brings the posts that were waiting.
        pendingPosts = []
        await pages.start(fetchPage, clearing: false)
    }

    /// Loads the next page. While a page is loading no second request starts (the call waits for that one);
    /// after the end, nothing is requested.
    public func loadMore() async {
        await pages.loadMore()
    }

    /// Loads the next page when `post` is among the last `threshold` shown (call it as rows appear).
    public func loadMoreIfNeeded(currentItem post: Post, threshold: Int = 3) async {
        await pages.loadMoreIfNeeded(currentItem: post, threshold: threshold)
    }

    /// Switches the order and loads its first page.
    public func setSort(_ newSort: CommunitySort) async {
        sort = newSort
        pendingPosts = []
        await pages.start(fetchPage, clearing: true)
    }

    /// Newest first ↔ oldest first, as the apps' toggle does.
    public func toggleSort() async {
        await setSort(sort == .newestFirst ? .oldestFirst : .newestFirst)
    }

    /// Fetches the page at `_start` = the rows seen so far, in the current order; a short page is the last.
    private var fetchPage: PagedList<Post>.Fetch {
        { [weak self] (request) throws(APIError) in
            guard let self else { throw .cancelled }
            let page = try await client.posts(start: request.offset, limit: pageSize, sort: sort)
            return .init(items: page, hasMore: page.count >= pageSize)
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
        guard hasLoaded, !pages.contains(id: post.id) else { return }
        if sort == .newestFirst {
            pages.insert(post, at: 0)
        } else if reachedEnd {
            pages.insert(post, at: posts.count)
        }
    }

    /// Shows the server's newer version of a post (edited, or a comment added) where the post is shown.
    public func replace(_ post: Post) {
        pages.replace(post)
    }

    /// Takes a deleted post out of the feed.
    public func remove(postID: Int) {
        pages.remove(id: postID)
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
