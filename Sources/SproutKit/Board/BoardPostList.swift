import Foundation
import Observation

/// What a board list is waiting for.
public typealias BoardLoadState = PageLoadState

/// A list of board posts paged by offset — a board's posts (`BoardPostsStore.list`) or search results
/// (`BoardSearchStore.results`): the first page at offset 0, then `offset` = the posts loaded while `total` says
/// more remain; one load at a time (a `loadMore` while a page loads waits for it and sends nothing); a new board
/// or search cancels the running load and drops its answer. The paging is `PagedList`'s.
@MainActor
@Observable
public final class BoardPostList {
    /// Fetches the page at `offset` of `limit` posts.
    typealias Fetch = @MainActor (_ offset: Int, _ limit: Int) async throws(APIError) -> BoardPage

    /// Posts per page (`limit`).
    public let pageSize: Int
    private let operation: SproutError.Operation
    private let pages = PagedList<BoardPost>()

    init(pageSize: Int, operation: SproutError.Operation) {
        self.pageSize = min(max(pageSize, 1), 100)
        self.operation = operation
        // `total` decides, not the last page: posts written and deleted here move it.
        pages.hasMoreRule = { $0.hasLoaded && $0.total > $0.items.count }
    }

    /// The posts loaded so far, newest first.
    public var posts: [BoardPost] { pages.items }
    /// How many posts match on the server.
    public var total: Int { pages.total }
    /// Whether the first page has arrived.
    public var hasLoaded: Bool { pages.hasLoaded }
    /// What the list is loading.
    public var loadState: BoardLoadState { pages.loadState }
    /// The last failure, sorted; `dismissError()` clears it.
    public var lastError: SproutError? { pages.lastError?.sorted(for: .board, during: operation) }
    /// Whether the server has posts after the ones loaded.
    public var hasMore: Bool { pages.hasMore }
    /// Whether any page is loading.
    public var isLoading: Bool { pages.isLoading }
    /// The last failure as a sentence to show.
    public var errorMessage: String? { lastError?.message }

    /// Lists what `fetch` fetches from the first page, clearing what is shown at once when `clearing`.
    func start(_ fetch: @escaping Fetch, clearing: Bool) async {
        let pageSize = pageSize
        await pages.start({ [weak pages] (request) throws(APIError) in
            let page = try await fetch(request.isFirst ? 0 : request.loadedCount, pageSize)
            // An empty page is the end, whatever `total` says.
            let isEnd = page.posts.isEmpty && !request.isFirst
            return .init(items: page.posts, hasMore: !page.posts.isEmpty, total: isEnd ? pages?.items.count : page.total)
        }, clearing: clearing)
    }

    /// Loads the first page again, replacing the posts shown once it arrives (pull to refresh).
    public func refresh() async {
        await pages.refresh()
    }

    /// Loads the next page (`offset` = posts loaded), unless one is loading (then waits for it) or nothing remains.
    public func loadMore() async {
        await pages.loadMore()
    }

    /// Loads the next page when `post` is among the last `threshold` shown (call it as rows appear).
    public func loadMoreIfNeeded(currentItem post: BoardPost, threshold: Int = 5) async {
        await pages.loadMoreIfNeeded(currentItem: post, threshold: threshold)
    }

    /// Stops listing: cancels any load and shows nothing.
    func clear() {
        pages.clear()
    }

    /// Shows the newer version of a post (edited, or opened: its view count), where it is shown.
    public func replace(_ post: BoardPost) {
        pages.replace(post)
    }

    /// Shows a post written on another screen at the top (the stores check it belongs to the list).
    func insert(_ post: BoardPost) {
        guard pages.hasLoaded, !pages.contains(id: post.id) else { return }
        pages.insert(post, at: 0)
        pages.total += 1
    }

    /// Shows a post that was not shown (written elsewhere, or restored) where the newest-first order puts it,
    /// when that is within the posts loaded; answers whether it was.
    @discardableResult
    func insertInOrder(_ post: BoardPost) -> Bool {
        guard pages.insert(post, orderedBy: { $0.id > $1.id }) else { return false }
        pages.total += 1
        return true
    }

    /// Takes a deleted post out of the list.
    public func remove(postID: Int) {
        guard pages.remove(id: postID) else { return }
        pages.total = max(0, pages.total - 1)
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        pages.dismissError()
    }
}
