import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// `ProductDetailStore`: loading, the owner check, both delete flows with the vendor secret, and modify.
@MainActor
@Suite struct MarketDetailStoreTests {
    /// A detail store for a product of vendor 7, seen by vendor `viewer` speaking `generation`.
    static func store(viewer: Int = 7, generation: MarketAPIGeneration = .v3) -> (ProductDetailStore, MarketFakeServer, MarketVendorCredentials, Int) {
        let server = MarketFakeServer()
        let owner = server.addVendor(id: 7)
        let other = server.addVendor(id: 8)
        let id = server.addProducts(1, by: 7)[0]
        let credentials = viewer == 7 ? owner : other
        let client = MarketClient(client: APIClient(baseURL: MarketFakeServer.base, transport: server), generation: generation, credentials: credentials)
        return (ProductDetailStore(productID: id, client: client), server, owner, id)
    }

    @Test func loadShowsTheProductAndWhoMayEditIt() async {
        let (store, _, _, id) = Self.store()
        #expect(store.product == nil && !store.canEdit && !store.canEdit(vendorID: 7))
        await store.load()
        #expect(store.product?.id == id && store.product?.images.count == 2 && !store.isLoading)
        #expect(store.canEdit && store.canEdit(vendorID: 7) && !store.canEdit(vendorID: 8) && !store.canEdit(vendorID: nil))
        let (other, _, _, _) = Self.store(viewer: 8)
        await other.load()
        #expect(!other.canEdit)
    }

    @Test func aMissingProductIsGone() async {
        let (store, server, _, id) = Self.store()
        server.failNext("GET", "/api/products/\(id)", status: 404)
        await store.load()
        #expect(store.isDeleted && store.errorMessage == "상품을 불러오는데 실패하였습니다." && store.lastError?.kind == .notFound)
    }

    @Test(arguments: MarketAPIGeneration.allCases)
    func deleteRunsTheGenerationsFlow(generation: MarketAPIGeneration) async {
        let (store, server, owner, id) = Self.store(generation: generation)
        await store.load()
        #expect(await store.delete(vendorSecret: owner.secret))
        #expect(store.isDeleted && store.resultMessage == "상품 삭제 완료하였습니다" && store.errorMessage == nil)
        let lines = server.requests.dropFirst().map(\.line)
        let lookup = generation == .v2 ? "secret" : "archived"
        #expect(lines.first == "POST /api/products/\(id)/\(lookup)" && lines.count == 2)
        #expect(lines.last == (generation == .v2 ? "DELETE /api/products/\(id)/product-secret-\(id)"
                                                 : "DELETE \(MarketDeleteToken(productID: id, productSecret: "product-secret-\(id)").path)"))
        #expect(server.productIDs.isEmpty)
    }

    @Test func aWrongSecretFailsTheLookupAndDeletesNothing() async {
        let (store, server, _, id) = Self.store(generation: .v2)
        await store.load()
        #expect(await store.delete(vendorSecret: "wrong") == false)
        #expect(!store.isDeleted && store.errorMessage == "상품의 Secret을 불러오는데 실패하였습니다." && store.lastError?.kind == .forbidden)
        #expect(server.productIDs == [id] && server.requests.count == 2)
    }

    @Test func aFailedDeleteAfterTheLookupSaysSo() async {
        let (store, server, owner, id) = Self.store()
        await store.load()
        server.failNext("DELETE", "/api/products/", status: 500)
        #expect(await store.delete(vendorSecret: owner.secret) == false)
        #expect(!store.isDeleted && store.errorMessage == "상품 삭제 실패하였습니다")
        #expect(server.productIDs == [id])
    }

    @Test func someoneElsesProductOrAnEmptySecretSendsNothing() async {
        let (store, server, _, _) = Self.store(viewer: 8)
        await store.load()
        #expect(await store.delete(vendorSecret: "secret8") == false)
        #expect(store.errorMessage == "상품을 제거할 수 없습니다.")
        #expect(await store.delete(vendorSecret: "") == false)
        #expect(store.errorMessage == "값이 없습니다." && server.requests.count == 1)
    }

    @Test func aProductAlreadyGoneCountsAsDeleted() async {
        let (store, server, owner, id) = Self.store()
        await store.load()
        server.failNext("POST", "/api/products/\(id)/archived", status: 404)
        #expect(await store.delete(vendorSecret: owner.secret))
        #expect(store.isDeleted)
    }

    @Test func modifyShowsTheServersAnswer() async {
        let (store, server, owner, id) = Self.store(generation: .v2)
        await store.load()
        #expect(await store.modify(MarketProductChanges(secret: owner.secret, name: "새 이름", description: "새 설명", price: 5000, generation: .v2)))
        #expect(store.product?.name == "새 이름" && store.product?.description == "새 설명" && store.product?.price == 5000)
        #expect(server.product(id)?.name == "새 이름")
        #expect(server.requests.last?.jsonBody?["descriptions"] as? String == "새 설명")

        #expect(await store.modify(MarketProductChanges(secret: "wrong", name: "남의 이름", generation: .v2)) == false)
        #expect(store.errorMessage == "상품 수정에 실패하였습니다." && store.product?.name == "새 이름")
        #expect(await store.modify(MarketProductChanges(secret: owner.secret, discountedPrice: 9000, generation: .v2)) == false)
        #expect(store.errorMessage == "할인 가격이 상품 가격보다 큽니다." && store.lastError?.kind == .invalidRequest)
        store.dismissMessages()
        #expect(store.errorMessage == nil && store.lastError == nil)
    }
}
