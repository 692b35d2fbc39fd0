import Foundation
import Observation

/// What a paged list is loading.
public enum PageLoadState: Equatable, Sendable {
    /// Nothing is loading.
    case idle
    /// Loading the first page (first load, refresh, a new search, order or filter).
    case refreshing
    /// Loading the page after the items loaded so far.
    case loadingMore
}

/// The paging every list store shares — one load at a time, refresh, "load more", de-duplication, end of list,
/// stale answers dropped — over any API's pages: the store says how to fetch a page (`start(_:clearing:)`), and
/// the list keeps the items and the state.
///
/// - One load at a time: a `loadMore()` while a page loads waits for it and sends nothing.
/// - `refresh()` (or `start` again, for a new search or order) cancels the running load; its answer, when it
///   comes, is dropped, so an older request never lands on the newer list. The items shown stay until the first
///   page arrives, unless `start` was told to clear them.
/// - A later page's items already shown (the server's pages shifted under a new item) are added once only.
/// - The list ends when a page says no more follow (`Page.hasMore`); `fill` can make one `loadMore` fetch more
///   than one page when pages bring too few new items.
/// - A failing page keeps what is shown and sets `lastError` (and calls `onFailure`); cancelled loads are silent.
@MainActor
@Observable
public final class PagedList<Item: Identifiable & Sendable> {
    /// Fetches the page `request` describes.
    public typealias Fetch = @MainActor (_ request: PageRequest) async throws(APIError) -> Page

    /// One page as the store's fetch answers it.
    public struct Page {
        /// The page's items, in the order shown.
        public var items: [Item]
        /// Whether the server may have items after this page (an empty page should say false).
        public var hasMore: Bool
        /// How many items the whole list has on the server, when the API says; nil keeps the last count.
        public var total: Int?
        /// The page's number, for page-numbered APIs; nil keeps the last number.
        public var number: Int?

        /// A page of `items`.
        public init(items: [Item], hasMore: Bool, total: Int? = nil, number: Int? = nil) {
            self.items = items
            self.hasMore = hasMore
            self.total = total
            self.number = number
        }
    }

    /// How many pages one `loadMore` may fetch while they bring fewer new items than wanted.
    public struct Fill: Sendable, Equatable {
        /// `loadMore` fetches again while it has added fewer new items than this (and more may follow).
        public var minimumNewItems: Int
        /// The most fetches one `loadMore` makes, so a server that keeps promising rows cannot keep it going.
        public var maximumFetches: Int

        /// Fetch until `minimumNewItems` new items arrived, at most `maximumFetches` times.
        public init(minimumNewItems: Int, maximumFetches: Int) {
            self.minimumNewItems = minimumNewItems
            self.maximumFetches = maximumFetches
        }
    }

    /// The items loaded so far, in the order shown.
    public private(set) var items: [Item] = []
    /// What the list is loading.
    public private(set) var loadState: PageLoadState = .idle
    /// Whether the first page of the current list has arrived.
    public private(set) var hasLoaded = false
    /// Whether the last page that arrived said more may follow.
    public private(set) var pageSaidMore = false
    /// How many items the list has on the server, from the last page that said; the store moves it for the
    /// items it inserts and removes itself.
    public internal(set) var total = 0
    /// The number of the last page that arrived (from `Page.number`); 0 before the first.
    public private(set) var pageNumber = 0
    /// The last failure of a load; cleared by a page that arrives, by `dismissError()` and by a clearing start.
    public private(set) var lastError: APIError?
    /// Called with the failure of a load that is still current (not cancelled, not overtaken).
    @ObservationIgnored public var onFailure: (@MainActor (APIError) -> Void)?
    /// Whether a later page may exist, when the store decides it otherwise than `hasLoaded && pageSaidMore`.
    @ObservationIgnored public var hasMoreRule: (@MainActor (PagedList) -> Bool)?
    /// How many pages one `loadMore` may fetch; nil fetches one.
    @ObservationIgnored public var fill: Fill?

    /// The rows of the server's list seen so far, moved by `insert` and `remove`, for offset-paged APIs.
    @ObservationIgnored private var offset = 0
    @ObservationIgnored private var fetch: Fetch?
    @ObservationIgnored private let loads = PageLoadCoordinator()

    /// An empty list; nothing loads before `start(_:clearing:)`.
    public init() {}

    /// Whether a later page may exist.
    public var hasMore: Bool { hasMoreRule?(self) ?? (hasLoaded && pageSaidMore) }
    /// Whether any page is loading.
    public var isLoading: Bool { loadState != .idle }

    // MARK: Loading

    /// Lists what `fetch` fetches, from the first page: any running load is cancelled (its answer dropped), and
    /// with `clearing` what is shown goes at once.
    public func start(_ fetch: @escaping Fetch, clearing: Bool) async {
        loads.restart()
        self.fetch = fetch
        if clearing { reset() }
        await load(.refreshing)
    }

    /// Loads the first page again, replacing the items shown once it arrives (pull to refresh).
    public func refresh() async {
        guard fetch != nil else { return }
        loads.restart()
        await load(.refreshing)
    }

    /// Loads the next page, unless one is loading (then waits for it) or none remains.
    public func loadMore() async {
        if await loads.joinRunning() { return }
        guard hasMore else { return }
        await load(.loadingMore)
    }

    /// Loads the next page when `item` is among the last `threshold` shown (call it as rows appear).
    public func loadMoreIfNeeded(currentItem item: Item, threshold: Int) async {
        guard let index = items.firstIndex(where: { $0.id == item.id }), index >= items.count - threshold else { return }
        await loadMore()
    }

    /// Stops listing: cancels any load and shows nothing.
    public func clear() {
        loads.restart()
        fetch = nil
        reset()
        loadState = .idle
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        lastError = nil
    }

    private func reset() {
        items = []
        total = 0
        offset = 0
        pageNumber = 0
        pageSaidMore = false
        hasLoaded = false
        lastError = nil
    }

    private func load(_ state: PageLoadState) async {
        guard let fetch else { return }
        loadState = state
        let finished = await loads.run { generation in
            await self.fetchPages(state, with: fetch, generation: generation)
        }
        if finished { loadState = .idle }
    }

    private func fetchPages(_ state: PageLoadState, with fetch: Fetch, generation: Int) async {
        let isFirst = state == .refreshing
        var request = PageRequest(isFirst: isFirst, offset: isFirst ? 0 : offset, loadedCount: items.count, lastPageNumber: pageNumber)
        do throws(APIError) {
            while true {
                let page = try await fetch(request)
                guard loads.isCurrent(generation), !Task.isCancelled else { return }
                let added = take(page, replacing: isFirst, at: request.offset)
                request.fetchesInLoad += 1
                request.addedInLoad += added
                request.addedByLastFetch = added
                guard !isFirst, let fill, request.addedInLoad < fill.minimumNewItems, hasMore, request.fetchesInLoad < fill.maximumFetches else {
                    return
                }
                request.offset = offset
                request.loadedCount = items.count
                request.lastPageNumber = pageNumber
            }
        } catch .cancelled {
            return
        } catch {
            guard loads.isCurrent(generation) else { return }
            lastError = error
            onFailure?(error)
        }
    }

    /// Shows `page`; returns how many items it added.
    private func take(_ page: Page, replacing: Bool, at start: Int) -> Int {
        let added: Int
        if replacing {
            items = page.items
            added = page.items.count
        } else {
            // An item added on the server meanwhile shifts its pages: their items come again, and are shown once.
            let shown = Set(items.map(\.id))
            let fresh = page.items.filter { !shown.contains($0.id) }
            items += fresh
            added = fresh.count
        }
        offset = start + page.items.count
        pageSaidMore = page.hasMore
        if let total = page.total { self.total = total }
        if let number = page.number { pageNumber = number }
        hasLoaded = true
        lastError = nil
        return added
    }

    // MARK: Changes made here

    /// Shows `item` at `index` (made here, or on another screen); it counts as a row seen for the next offset.
    public func insert(_ item: Item, at index: Int) {
        items.insert(item, at: min(max(index, 0), items.count))
        offset += 1
    }

    /// Shows the newer version of an item, where it is shown; false when it is not.
    @discardableResult
    public func replace(_ item: Item) -> Bool {
        guard let index = items.firstIndex(where: { $0.id == item.id }) else { return false }
        items[index] = item
        return true
    }

    /// Takes an item out of the list; false when it was not shown. The next offset moves back by one.
    @discardableResult
    public func remove(id: Item.ID) -> Bool {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return false }
        items.remove(at: index)
        offset -= 1
        return true
    }

    /// Whether `id` is shown.
    public func contains(id: Item.ID) -> Bool {
        items.contains { $0.id == id }
    }
}
