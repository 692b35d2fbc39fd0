import Foundation
import Observation

/// What a board list is waiting for.
public enum BoardLoadState: Equatable, Sendable {
    /// Nothing is loading.
    case idle
    /// Loading the first page (first load, refresh, another board or search).
    case refreshing
    /// Loading the page after the posts loaded so far.
    case loadingMore
}

/// A list of board posts paged by offset — a board's posts (`BoardPostsStore.list`) or search results
/// (`BoardSearchStore.results`): the first page at offset 0, then `offset` = the posts loaded while `total` says
/// more remain; one load at a time (a `loadMore` while a page loads waits for it and sends nothing); a new board
/// or search cancels the running load and drops its answer.
@MainActor
@Observable
public final class BoardPostList {
    /// Fetches the page at `offset` of `limit` posts.
    typealias Fetch = @MainActor (_ offset: Int, _ limit: Int) async throws(APIError) -> BoardPage

    /// The posts loaded so far, newest first.
    public private(set) var posts: [BoardPost] = []
    /// How many posts match on the server.
    public private(set) var total = 0
    /// Whether the first page has arrived.
    public private(set) var hasLoaded = false
    /// What the list is loading.
    public private(set) var loadState: BoardLoadState = .idle
    /// The last failure, sorted; `dismissError()` clears it.
    public private(set) var lastError: SproutError?

    /// Posts per page (`limit`).
    public let pageSize: Int
    private let operation: SproutError.Operation
    @ObservationIgnored private var fetch: Fetch?
    @ObservationIgnored private let loads = PageLoadCoordinator()

    init(pageSize: Int, operation: SproutError.Operation) {
        self.pageSize = min(max(pageSize, 1), 100)
        self.operation = operation
    }

    /// Whether the server has posts after the ones loaded.
    public var hasMore: Bool { hasLoaded && total > posts.count }
    /// Whether any page is loading.
    public var isLoading: Bool { loadState != .idle }
    /// The last failure as a sentence to show.
    public var errorMessage: String? { lastError?.message }

    /// Lists what `fetch` fetches from the first page, clearing what is shown at once when `clearing`.
    func start(_ fetch: @escaping Fetch, clearing: Bool) async {
        loads.restart()
        self.fetch = fetch
        if clearing { reset() }
        await load(.refreshing)
    }

    /// Loads the first page again, replacing the posts shown once it arrives (pull to refresh).
    public func refresh() async {
        guard fetch != nil else { return }
        loads.restart()
        await load(.refreshing)
    }

    /// Loads the next page (`offset` = posts loaded), unless one is loading (then waits for it) or nothing remains.
    public func loadMore() async {
        if await loads.joinRunning() { return }
        guard hasMore else { return }
        await load(.loadingMore)
    }

    /// Loads the next page when `post` is among the last `threshold` shown (call it as rows appear).
    public func loadMoreIfNeeded(currentItem post: BoardPost, threshold: Int = 5) async {
        guard let index = posts.firstIndex(where: { $0.id == post.id }), index >= posts.count - threshold else { return }
        await loadMore()
    }

    /// Stops listing: cancels any load and shows nothing.
    func clear() {
        loads.restart()
        fetch = nil
        reset()
        loadState = .idle
    }

    /// Shows the newer version of a post (edited, or opened: its view count), where it is shown.
    public func replace(_ post: BoardPost) {
        guard let index = posts.firstIndex(where: { $0.id == post.id }) else { return }
        posts[index] = post
    }

    /// Shows a post written on another screen at the top (the stores check it belongs to the list).
    func insert(_ post: BoardPost) {
        guard hasLoaded, !posts.contains(where: { $0.id == post.id }) else { return }
        posts.insert(post, at: 0)
        total += 1
    }

    /// Takes a deleted post out of the list.
    public func remove(postID: Int) {
        guard let index = posts.firstIndex(where: { $0.id == postID }) else { return }
        posts.remove(at: index)
        total = max(0, total - 1)
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        lastError = nil
    }

    private func reset() {
        posts = []
        total = 0
        hasLoaded = false
        lastError = nil
    }

    private func load(_ state: BoardLoadState) async {
        guard let fetch else { return }
        loadState = state
        let offset = state == .refreshing ? 0 : posts.count
        let finished = await loads.run { generation in
            do throws(APIError) {
                let page = try await fetch(offset, self.pageSize)
                guard self.loads.isCurrent(generation), !Task.isCancelled else { return }
                if state == .refreshing {
                    self.posts = page.posts
                } else {
                    // A post written meanwhile shifts the server's offsets: its neighbours come again, once.
                    let shown = Set(self.posts.map(\.id))
                    self.posts += page.posts.filter { !shown.contains($0.id) }
                }
                // An empty page is the end, whatever `total` says.
                self.total = page.posts.isEmpty && state == .loadingMore ? self.posts.count : page.total
                self.hasLoaded = true
                self.lastError = nil
            } catch .cancelled {
                return
            } catch {
                guard self.loads.isCurrent(generation) else { return }
                self.lastError = error.sorted(for: .board, during: self.operation)
            }
        }
        if finished { loadState = .idle }
    }
}
