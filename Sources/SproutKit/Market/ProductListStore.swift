import Foundation
import Observation

/// The open-market list screen without its UI: pages by number (`page_no`), newest first; `loadMore` asks for
/// the page after the last one loaded and stops when the server says there is no next page; pull-to-refresh
/// starts again at page 1; a search restarts the paging; and the list/grid layout is kept between launches.
@MainActor
@Observable
public final class ProductListStore {
    /// What the store is waiting for.
    public enum LoadState: Equatable, Sendable {
        /// Nothing is loading.
        case idle
        /// Loading page 1 (first load, refresh, a new search); the products shown stay until it arrives, except
        /// after a new search, which clears them at once.
        case refreshing
        /// Loading the page after the last one loaded.
        case loadingMore
    }

    /// The products loaded so far, newest first.
    public private(set) var products: [MarketProductSummary] = []
    /// What the store is loading right now.
    public private(set) var loadState: LoadState = .idle
    /// The number of the last page loaded; 0 before the first.
    public private(set) var pageNo = 0
    /// Whether the server has a page after the last one loaded (its `has_next`/`hasNext`).
    public private(set) var hasNext = false
    /// Whether page 1 of the current list or search has arrived.
    public private(set) var hasLoaded = false
    /// How many products the current list or search has on the server.
    public private(set) var totalCount = 0
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
    private let client: MarketClient
    private let settings: any SettingsStore
    @ObservationIgnored private let loads = PageLoadCoordinator()

    /// - Parameters:
    ///   - client: the market API (reading needs no credentials).
    ///   - settings: where the layout is kept between launches.
    ///   - itemsPerPage: page size, kept within 1…100, the sizes the server serves.
    public init(client: MarketClient, settings: any SettingsStore, itemsPerPage: Int = 20) {
        self.client = client
        self.settings = settings
        self.itemsPerPage = min(max(itemsPerPage, 1), 100)
        layout = settings.string(forKey: ProductLayout.settingsKey).flatMap(ProductLayout.init(rawValue:)) ?? .list
    }

    /// Whether any page is loading.
    public var isLoading: Bool { loadState != .idle }

    // MARK: Layout

    /// Shows the list as `layout` from now on, this launch and the next.
    public func setLayout(_ layout: ProductLayout) {
        self.layout = layout
        settings.set(layout.rawValue, forKey: ProductLayout.settingsKey)
    }

    // MARK: Loading

    /// Loads page 1 again, replacing the products shown once it arrives (pull to refresh).
    public func refresh() async {
        await restart(clearing: false)
    }

    /// Loads page `pageNo + 1`. While a page is loading no second request starts (the call waits for that one);
    /// when the server said there is no next page, nothing is requested.
    public func loadMore() async {
        if await loads.joinRunning() { return }
        guard hasLoaded, hasNext else { return }
        await startLoad(.loadingMore)
    }

    /// Loads the next page when `product` is among the last `threshold` shown (call it as cells appear).
    public func loadMoreIfNeeded(currentItem product: MarketProductSummary, threshold: Int = 3) async {
        guard let index = products.firstIndex(where: { $0.id == product.id }), index >= products.count - threshold else { return }
        await loadMore()
    }

    /// Shows the products whose name or description contains `text`, from page 1; an empty text (after trimming)
    /// goes back to the whole list.
    public func search(_ text: String) async {
        query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        await restart(clearing: true)
    }

    private func restart(clearing: Bool) async {
        loads.restart()
        if clearing {
            products = []
            pageNo = 0
            hasNext = false
            hasLoaded = false
            totalCount = 0
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
        let page = state == .refreshing ? 1 : pageNo + 1
        do {
            let result = try await client.products(page: page, itemsPerPage: itemsPerPage, search: query.isEmpty ? nil : query)
            guard loads.isCurrent(generation), !Task.isCancelled else { return }
            if state == .refreshing {
                products = result.products
            } else {
                // A product registered meanwhile shifts the server's pages down: its neighbours come again, once.
                let shown = Set(products.map(\.id))
                products += result.products.filter { !shown.contains($0.id) }
            }
            pageNo = page
            // An empty page is the end, whatever the envelope says.
            hasNext = result.hasNext && !result.products.isEmpty
            totalCount = result.totalCount
            hasLoaded = true
        } catch .cancelled {
            return
        } catch {
            guard loads.isCurrent(generation) else { return }
            report(error)
        }
    }

    // MARK: Changes made on other screens

    /// Shows a product registered on another screen at the top, when it belongs to the current list.
    public func insert(_ product: MarketProduct) {
        guard hasLoaded, !products.contains(where: { $0.id == product.id }), matchesQuery(product) else { return }
        products.insert(product.summary, at: 0)
        totalCount += 1
    }

    /// Shows the newer version of a product modified on another screen, where it is shown.
    public func replace(_ product: MarketProduct) {
        guard let index = products.firstIndex(where: { $0.id == product.id }) else { return }
        products[index] = product.summary
    }

    /// Takes a deleted product out of the list.
    public func remove(productID: Int) {
        guard let index = products.firstIndex(where: { $0.id == productID }) else { return }
        products.remove(at: index)
        totalCount -= 1
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
