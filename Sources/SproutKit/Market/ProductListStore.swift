import Foundation
import Observation

/// The open-market list screen without its UI: pages by number (`page_no`), newest first; `loadMore` asks for
/// the page after the last one loaded and stops when the server says there is no next page; pull-to-refresh
/// starts again at page 1; a search restarts the paging; and the list/grid layout is kept between launches.
@MainActor
@Observable
public final class ProductListStore {
    /// What the store is waiting for: page 1 (`refreshing`: first load, refresh, a new search — the products shown
    /// stay until it arrives, except after a new search, which clears them at once) or the page after the last
    /// one loaded (`loadingMore`).
    public typealias LoadState = PageLoadState

    /// The products loaded so far, newest first.
    public var products: [MarketProductSummary] { pages.items }
    /// What the store is loading right now.
    public var loadState: LoadState { pages.loadState }
    /// The number of the last page loaded; 0 before the first.
    public var pageNo: Int { pages.pageNumber }
    /// Whether the server has a page after the last one loaded (its `has_next`/`hasNext`).
    public var hasNext: Bool { pages.pageSaidMore }
    /// Whether page 1 of the current list or search has arrived.
    public var hasLoaded: Bool { pages.hasLoaded }
    /// How many products the current list or search has on the server.
    public var totalCount: Int { pages.total }
    /// The search in effect, trimmed; empty means the whole list.
    public private(set) var query = ""
    /// List or grid; changes are written to the settings store at once.
    public private(set) var layout: ProductLayout
    /// The last failure, as a sentence to show; `dismissError()` clears it.
    public private(set) var errorMessage: String?
    /// The last failure, sorted.
    public private(set) var lastError: SproutError?

    /// Products per page (`items_per_page`).
    public let itemsPerPage: Int
    let client: MarketClient
    private let settings: any SettingsStore
    let pages = PagedList<MarketProductSummary>()

    /// - Parameters:
    ///   - client: the market API (reading needs no credentials).
    ///   - settings: where the layout is kept between launches.
    ///   - itemsPerPage: page size, kept within 1…100, the sizes the server serves.
    public init(client: MarketClient, settings: any SettingsStore, itemsPerPage: Int = 20) {
        self.client = client
        self.settings = settings
        self.itemsPerPage = min(max(itemsPerPage, 1), 100)
        layout = settings.string(forKey: ProductLayout.settingsKey).flatMap(ProductLayout.init(rawValue:)) ?? .list
        pages.onFailure = { [weak self] error in self?.report(error) }
    }

    /// Whether any page is loading.
    public var isLoading: Bool { pages.isLoading }

    // MARK: Layout

    /// Shows the list as `layout` from now on, this launch and the next.
    public func setLayout(_ layout: ProductLayout) {
        self.layout = layout
        settings.set(layout.rawValue, forKey: ProductLayout.settingsKey)
    }

    // MARK: Loading

    /// Loads page 1 again, replacing the products shown once it arrives (pull to refresh).
    public func refresh() async {
        await pages.start(fetchPage, clearing: false)
    }

    /// Loads page `pageNo + 1`. While a page is loading no second request starts (the call waits for that one);
    /// when the server said there is no next page, nothing is requested.
    public func loadMore() async {
        await pages.loadMore()
    }

    /// Loads the next page when `product` is among the last `threshold` shown (call it as cells appear).
    public func loadMoreIfNeeded(currentItem product: MarketProductSummary, threshold: Int = 3) async {
        await pages.loadMoreIfNeeded(currentItem: product, threshold: threshold)
    }

    /// Shows the products whose name or description contains `text`, from page 1; an empty text (after trimming)
    /// goes back to the whole list.
    public func search(_ text: String) async {
        query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        await pages.start(fetchPage, clearing: true)
    }

    /// Fetches the page after the last one loaded (page 1 first) of the current list or search.
    private var fetchPage: PagedList<MarketProductSummary>.Fetch {
        { [weak self] (request) throws(APIError) in
            guard let self else { throw .cancelled }
            let number = request.isFirst ? 1 : request.lastPageNumber + 1
            let result = try await client.products(page: number, itemsPerPage: itemsPerPage, search: query.isEmpty ? nil : query)
            // An empty page is the end, whatever the envelope says.
            return .init(items: result.products, hasMore: result.hasNext && !result.products.isEmpty, total: result.totalCount, number: number)
        }
    }

    // MARK: Changes made on other screens

    /// Shows a product registered on another screen at the top, when it belongs to the current list.
    public func insert(_ product: MarketProduct) {
        guard hasLoaded, !pages.contains(id: product.id), matchesQuery(product) else { return }
        pages.insert(product.summary, at: 0)
        pages.total += 1
    }

    /// Shows the newer version of a product modified on another screen, where it is shown.
    public func replace(_ product: MarketProduct) {
        pages.replace(product.summary)
    }

    /// Takes a deleted product out of the list.
    public func remove(productID: Int) {
        guard pages.remove(id: productID) else { return }
        pages.total -= 1
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        errorMessage = nil
        lastError = nil
    }

    private func matchesQuery(_ product: MarketProduct) -> Bool {
        query.isEmpty || product.name.localizedCaseInsensitiveContains(query) || product.description.localizedCaseInsensitiveContains(query)
    }

    private func report(_ error: APIError) {
        let sorted = error.sorted(for: .market, during: .loadList)
        lastError = sorted
        errorMessage = sorted.message
    }
}
