import Foundation
import SproutKit
import Testing

/// `ProductListStore.apply`: the market topic changes the loaded list and respects the search.
@MainActor
@Suite struct ProductListStoreLiveTests {
    /// The `/api/products` element of product `id`, as the server lists it.
    static func item(_ id: Int, from server: MarketFakeServer) async throws -> Data {
        let client = APIClient(baseURL: MarketFakeServer.base, transport: server)
        let list = try await client.send(Request<Data>(path: "/api/products", query: [("page_no", "1"), ("items_per_page", "100")]))
        return try LiveFixture.element(of: list, under: "pages", id: id)
    }

    @Test func createdUpdatedAndDeletedProductsChangeTheList() async throws {
        let (store, server) = MarketListStoreTests.store(products: 3)
        await store.refresh()
        let new = server.addProducts(1, name: { _ in "새 상품" })[0]
        await store.apply(LiveFixture.change(.market, "product.created", id: new, item: try await Self.item(new, from: server)))
        #expect(store.products.map(\.id) == [4, 3, 2, 1] && store.products[0].name == "새 상품" && store.totalCount == 4)

        let edited = try LiveFixture.edited(try await Self.item(2, from: server), ["name": "고친 상품", "stock": 0])
        await store.apply(LiveFixture.change(.market, "product.updated", id: 2, item: edited))
        #expect(store.products.first { $0.id == 2 }.map { ($0.name, $0.stock) } ?? ("", -1) == ("고친 상품", 0))

        await store.apply(LiveFixture.change(.market, "product.deleted", id: 3))
        #expect(store.products.map(\.id) == [4, 2, 1] && store.totalCount == 3)
        await store.apply(LiveFixture.change(.market, "product.updated", id: 3, item: try await Self.item(3, from: server)))
        #expect(store.products.map(\.id) == [4, 3, 2, 1] && store.totalCount == 4)
    }

    @Test func duringASearchOnlyMatchingProductsComeAndAnEditCanTakeOneOut() async throws {
        let (store, server) = MarketListStoreTests.store(products: 3)
        await store.search("상품 2")
        #expect(store.products.map(\.id) == [2])
        let other = server.addProducts(1, name: { _ in "다른 것" })[0]
        await store.apply(LiveFixture.change(.market, "product.created", id: other, item: try await Self.item(other, from: server)))
        #expect(store.products.map(\.id) == [2])
        let renamed = try LiveFixture.edited(try await Self.item(2, from: server), ["name": "이름을 바꿈", "description": "무관"])
        await store.apply(LiveFixture.change(.market, "product.updated", id: 2, item: renamed))
        #expect(store.products.isEmpty && store.totalCount == 0)
    }

    @Test func aResetLoadsPageOneAgain() async throws {
        let (store, server) = MarketListStoreTests.store(products: 2)
        await store.refresh()
        server.addProducts(1)
        await store.apply(.reset(topic: "market"))
        #expect(store.products.map(\.id) == [3, 2, 1])
    }

    @Test func followingAStreamReadsTheItemInsideTheFrame() async throws {
        let (store, server) = MarketListStoreTests.store(products: 2)
        await store.refresh()
        let id = server.addProducts(1, name: { _ in "스트림 상품" })[0]
        let item = try LiveFixture.edited(try await Self.item(id, from: server), ["price": 2.36, "discounted_price": 0.71, "bargain_price": 1.65])
        let transport = ScriptedEventTransport([.stayOpen(chunks: [try LiveFixture.frame(.market, "product.created", seq: 3, id: id, item: item)])])
        let sent = server.requests.count
        let client = APIClient(baseURL: MarketFakeServer.base, transport: server)
        let following = Task { try await store.follow(EventStream(client: client, topics: [.market], transport: transport)) }
        try await eventuallyOnMain { store.products.count == 3 }
        following.cancel()
        let product = try #require(store.products.first)
        #expect(product.name == "스트림 상품" && product.bargainPrice == Decimal(string: "1.65") && product.price - product.discountedPrice == product.bargainPrice)
        #expect(server.requests.count == sent, "the frame's item was read, not fetched")
    }
}
