import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import Testing

/// `ProductListStore`: page-number paging to the end, one load at a time, refresh, search and the layout setting.
@MainActor
@Suite struct MarketListStoreTests {
    static func store(products count: Int, itemsPerPage: Int = 20, settings: any SettingsStore = InMemorySettingsStore()) -> (ProductListStore, MarketFakeServer) {
        let server = MarketFakeServer()
        if count > 0 { server.addProducts(count) }
        let client = MarketClient(client: APIClient(baseURL: MarketFakeServer.base, transport: server))
        return (ProductListStore(client: client, settings: settings, itemsPerPage: itemsPerPage), server)
    }

    static func query(_ request: URLRequest?) -> [String: String] {
        MarketClientTests.query(request)
    }

    @Test func refreshLoadsPageOneNewestFirst() async {
        let (store, server) = Self.store(products: 45)
        #expect(store.products.isEmpty && !store.hasLoaded && store.pageNo == 0 && !store.isLoading)
        await store.refresh()
        #expect(Self.query(server.requests.last) == ["page_no": "1", "items_per_page": "20"])
        #expect(store.products.map(\.id) == Array((26...45).reversed()))
        #expect(store.hasLoaded && store.hasNext && store.pageNo == 1 && store.totalCount == 45 && store.loadState == .idle)
    }

    @Test func loadMoreAsksForTheNextPageAndStopsWhenThereIsNoNext() async {
        let (store, server) = Self.store(products: 45)
        await store.refresh()
        await store.loadMore()
        #expect(Self.query(server.requests.last)["page_no"] == "2")
        #expect(store.products.count == 40 && store.hasNext && store.pageNo == 2)
        await store.loadMore()
        #expect(Self.query(server.requests.last)["page_no"] == "3")
        #expect(store.products.map(\.id) == Array((1...45).reversed()) && !store.hasNext && store.pageNo == 3)
        let sent = server.requests.count
        await store.loadMore()
        await store.loadMore()
        #expect(server.requests.count == sent)
    }

    @Test func loadMoreBeforeTheFirstPageSendsNothing() async {
        let (store, server) = Self.store(products: 5)
        await store.loadMore()
        #expect(server.requests.isEmpty)
    }

    @Test func aSecondLoadMoreWhileOneRunsSendsNothing() async throws {
        let (store, server) = Self.store(products: 45)
        await store.refresh()
        server.hold()
        let first = Task { await store.loadMore() }
        try await server.waitForRequests(2)
        #expect(store.loadState == .loadingMore && store.isLoading)
        let second = Task { await store.loadMore() }
        await Task.yield()
        try await Task.sleep(for: .milliseconds(50))
        #expect(server.requests.count == 2)
        server.release()
        await first.value
        await second.value
        #expect(server.requests.count == 2 && store.pageNo == 2 && store.products.count == 40)
    }

    @Test func refreshStartsAgainAtPageOne() async {
        let (store, server) = Self.store(products: 45)
        await store.refresh()
        await store.loadMore()
        server.addProducts(1, name: { _ in "새 상품" })
        await store.refresh()
        #expect(Self.query(server.requests.last)["page_no"] == "1")
        #expect(store.pageNo == 1 && store.products.count == 20 && store.products.first?.name == "새 상품" && store.totalCount == 46)
        await store.loadMore()
        #expect(Self.query(server.requests.last)["page_no"] == "2" && store.products.count == 40)
    }

    @Test func aPageThatShiftedDoesNotRepeatProducts() async {
        let (store, server) = Self.store(products: 30, itemsPerPage: 10)
        await store.refresh()
        server.addProducts(2)
        await store.loadMore()
        #expect(store.products.count == 18 && Set(store.products.map(\.id)).count == 18)
    }

    @Test func aSearchRestartsThePagingAndAnEmptyOneEndsIt() async {
        let (store, server) = Self.store(products: 0, itemsPerPage: 10)
        server.addProducts(25, name: { $0.isMultiple(of: 2) ? "맥북 \($0)" : "아이폰 \($0)" })
        await store.refresh()
        await store.loadMore()
        #expect(store.pageNo == 2)
        await store.search("  맥북 ")
        #expect(store.query == "맥북")
        #expect(Self.query(server.requests.last) == ["page_no": "1", "items_per_page": "10", "search_value": "맥북"])
        #expect(store.products.count == 10 && store.products.allSatisfy { $0.name.hasPrefix("맥북") } && store.totalCount == 12 && store.hasNext)
        await store.loadMore()
        #expect(Self.query(server.requests.last) == ["page_no": "2", "items_per_page": "10", "search_value": "맥북"])
        #expect(store.products.count == 12 && !store.hasNext)
        await store.search("아이폰")
        #expect(store.pageNo == 1 && store.products.count == 10 && store.products.allSatisfy { $0.name.hasPrefix("아이폰") })
        await store.search("   ")
        #expect(store.query.isEmpty && Self.query(server.requests.last) == ["page_no": "1", "items_per_page": "10"])
        #expect(store.totalCount == 25 && store.products.count == 10)
    }

    @Test func aSearchWhileAPageLoadsDropsThatPage() async throws {
        let (store, server) = Self.store(products: 0, itemsPerPage: 10)
        server.addProducts(30, name: { $0 == 3 ? "특별한 상품" : "상품 \($0)" })
        await store.refresh()
        server.hold()
        let more = Task { await store.loadMore() }
        try await server.waitForRequests(2)
        let search = Task { await store.search("특별") }
        try await server.waitForRequests(3)
        server.release()
        await more.value
        await search.value
        #expect(store.products.map(\.name) == ["특별한 상품"] && !store.hasNext && store.query == "특별")
    }

    @Test func aFailedPageKeepsWhatIsShownAndSaysSo() async {
        let (store, server) = Self.store(products: 45)
        await store.refresh()
        server.failNext("GET", "/api/products", status: 500)
        await store.loadMore()
        #expect(store.products.count == 20 && store.pageNo == 1 && store.hasNext)
        #expect(store.errorMessage == "상품 리스트를 불러오는데 실패하였습니다." && store.lastError?.kind == .other)
        store.dismissError()
        #expect(store.errorMessage == nil)
        await store.loadMore()
        #expect(store.pageNo == 2 && store.products.count == 40)
    }

    @Test func theLayoutIsRememberedByTheNextStore() async {
        let settings = InMemorySettingsStore()
        let (first, _) = Self.store(products: 0, settings: settings)
        #expect(first.layout == .list)
        first.setLayout(.grid)
        let (second, _) = Self.store(products: 0, settings: settings)
        #expect(second.layout == .grid && ProductLayout.grid.title == "GRID")
    }

    @Test func theLayoutSurvivesARestartInAFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("market-settings-\(UUID().uuidString)/settings.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let (first, _) = Self.store(products: 0, settings: FileSettingsStore(url: url))
        first.setLayout(.grid)
        let (second, _) = Self.store(products: 0, settings: FileSettingsStore(url: url))
        #expect(second.layout == .grid)
        second.setLayout(.list)
        #expect(FileSettingsStore(url: url).string(forKey: ProductLayout.settingsKey) == "list")
        // A damaged file is no settings.
        try Data("not json".utf8).write(to: url)
        #expect(FileSettingsStore(url: url).string(forKey: ProductLayout.settingsKey) == nil)
        let (third, _) = Self.store(products: 0, settings: FileSettingsStore(url: url))
        #expect(third.layout == .list)
    }

    @Test func theLayoutCanLiveInUserDefaults() throws {
        let suite = "sproutkit-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let (first, _) = Self.store(products: 0, settings: UserDefaultsSettingsStore(defaults: defaults))
        first.setLayout(.grid)
        #expect(defaults.string(forKey: ProductLayout.settingsKey) == "grid")
        let (second, _) = Self.store(products: 0, settings: UserDefaultsSettingsStore(defaults: defaults))
        #expect(second.layout == .grid)
        UserDefaultsSettingsStore(defaults: defaults).set(nil, forKey: ProductLayout.settingsKey)
        #expect(defaults.string(forKey: ProductLayout.settingsKey) == nil)
    }

    @Test func changesFromOtherScreensShowInPlace() async throws {
        let (store, server) = Self.store(products: 5)
        await store.refresh()
        let product = try await MarketClient(client: APIClient(baseURL: MarketFakeServer.base, transport: server)).product(id: 3)
        var renamed = product
        renamed.name = "바뀐 이름"
        store.replace(renamed)
        #expect(store.products.first { $0.id == 3 }?.name == "바뀐 이름")
        store.remove(productID: 3)
        #expect(!store.products.contains { $0.id == 3 } && store.totalCount == 4)
        var new = product
        new.id = 99
        store.insert(new)
        #expect(store.products.first?.id == 99 && store.totalCount == 5)
    }
}
