import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// The captured answers of both market generations read through `MarketClient`, and Sprout's dual page read the
/// same by either generation.
@Suite struct MarketContractTests {
    static let vendor = MarketVendorCredentials(vendorID: 3, identifier: "5b5a5f22-7901-11ec-9173-b76aa80a2e69", secret: "password")

    static func client(answering body: Data, status: Int = 200, generation: MarketAPIGeneration = .v3) -> MarketClient {
        MarketClient(client: APIClient(baseURL: MarketFakeServer.base, transport: RecordingTransport(status: status, body: body)), generation: generation, credentials: vendor)
    }

    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0, hundredths: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
        return date.addingTimeInterval(Double(hundredths) / 100)
    }

    @Test(arguments: MarketAPIGeneration.allCases)
    func theV2SnakeCasePageDecodes(generation: MarketAPIGeneration) async throws {
        let page = try await Self.client(answering: try MarketFixture.data("v2-list-page1-capture.json"), generation: generation).products(page: 1, itemsPerPage: 15)
        #expect(page.pageNo == 1 && page.itemsPerPage == 15 && page.totalCount == 1387 && page.lastPage == 93)
        #expect(page.hasNext && !page.hasPrev && page.products.count == 15)
        let first = try #require(page.products.first)
        #expect(first.id == 2094 && first.vendorID == 6 && first.name == "ㄴㄴㄴㄴㄴㄴ" && first.vendorName == nil && first.description == nil)
        #expect(first.price == 123123 && first.discountedPrice == 1 && first.bargainPrice == 123122 && first.isDiscounted)
        #expect(first.currency == .krw && first.stock == 1)
        #expect(first.createdAt == Self.utc(2022, 5, 14) && first.issuedAt == first.createdAt)
        #expect(first.thumbnailURL?.absoluteString.hasSuffix("/6/thumb/ef2a5592d33111ec9676d7a49354f5e5.jpg") == true)
    }

    @Test(arguments: MarketAPIGeneration.allCases)
    func theV3CamelCasePageDecodes(generation: MarketAPIGeneration) async throws {
        let page = try await Self.client(answering: try MarketFixture.data("v3-list-page1-capture.json"), generation: generation).products(itemsPerPage: 100)
        #expect(page.pageNo == 1 && page.itemsPerPage == 100 && page.totalCount == 114 && page.lastPage == 2 && page.hasNext && !page.hasPrev)
        let item = try #require(page.products.first)
        #expect(item.id == 195 && item.vendorID == 29 && item.vendorName == "wongbing" && item.description == "Post테스트용")
        #expect(item.price == 1200 && item.bargainPrice == 1200 && item.discountedPrice == 0 && !item.isDiscounted)
        #expect(item.createdAt == Self.utc(2022, 11, 16))
    }

    @Test func theV3PageThreeQuirkStillDecodes() async throws {
        let page = try await Self.client(answering: try MarketFixture.data("v3-list-page3-capture.json")).products(page: 3)
        #expect(page.pageNo == 3 && page.itemsPerPage == 20 && page.products.count == 60)
        #expect(page.products.first?.id == 130 && page.products.last?.id == 41)
    }

    @Test func theV2DetailDecodes() async throws {
        let product = try await Self.client(answering: try MarketFixture.data("v2-detail-capture.json"), generation: .v2).product(id: 522)
        #expect(product.id == 522 && product.vendorID == 6 && product.name == "아이폰13" && product.description == "비싸")
        #expect(product.price == 1_300_000 && product.bargainPrice == 1_300_000 && product.discountedPrice == 0 && product.stock == 12)
        #expect(product.vendor == MarketProduct.Vendor(id: 6, name: "제인"))
        let image = try #require(product.images.first)
        #expect(product.images.count == 1 && image.id == 352 && image.issuedAt == Self.utc(2022, 1, 18))
        #expect(image.url.absoluteString.hasSuffix("/6/origin/f9aa6e0d787711ecabfa3f1efeb4842b.jpg"))
        #expect(product.thumbnailURL == image.thumbnailURL)
    }

    @Test func theV3DetailDecodes() async throws {
        let product = try await Self.client(answering: try MarketFixture.data("v3-detail-capture.json")).product(id: 188)
        #expect(product.id == 188 && product.vendorID == 13 && product.name == "ㅎㅎㅎ" && product.description == "ㄷㅊ허ㅗ")
        #expect(product.price == 11111 && product.discountedPrice == 111 && product.bargainPrice == 11000)
        #expect(product.vendor == MarketProduct.Vendor(id: 13, name: "mimm123"))
        #expect(product.images.map(\.id) == [228] && product.createdAt == Self.utc(2022, 11, 10))
    }

    @Test func theV2PostCaptureDecodesAsTheRegisterAnswer() async throws {
        let client = Self.client(answering: try MarketFixture.data("v2-post-response-capture.json"), status: 201, generation: .v2)
        let params = MarketProductParams(name: "zoe", description: "desc", price: 0, discountedPrice: 0, stock: 0, currency: "KRW", secret: "password", generation: .v2)
        let product = try await client.register(params, images: try MarketFixture.jpegs())
        #expect(product.id == 536 && product.name == "zoe" && product.description == "desc" && product.vendor.name == "Vendor2")
        #expect(product.createdAt == Self.utc(2022, 1, 19, 8, 25, 27, hundredths: 27))
    }

    @Test func theV2PatchCaptureDecodesAsTheModifyAnswer() async throws {
        let client = Self.client(answering: try MarketFixture.data("v2-patch-response-capture.json"), status: 202, generation: .v2)
        let product = try await client.modify(id: 533, changes: MarketProductChanges(secret: "password", price: 100_000, discountedPrice: 100, generation: .v2))
        #expect(product.id == 533 && product.name == "aladdin" && product.price == 100_000 && product.discountedPrice == 100 && product.bargainPrice == 99_900)
        #expect(product.images.map(\.id) == [362])
    }

    @Test func sproutsDualPageReadsTheSameForBothGenerations() async throws {
        let dual = MarketPageJSON(pageNo: 2, itemsPerPage: 2, totalCount: 5, pages: [MarketFixture.summary(id: 3), MarketFixture.summary(id: 2)])
        let body = try MarketFixture.json(dual)
        let keys = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any]).keys
        #expect(Set(keys).isSuperset(of: ["page_no", "pageNo", "has_next", "hasNext", "total_count", "totalCount"]))
        let v2 = try await Self.client(answering: body, generation: .v2).products(page: 2, itemsPerPage: 2)
        let v3 = try await Self.client(answering: body, generation: .v3).products(page: 2, itemsPerPage: 2)
        #expect(v2 == v3)
        #expect(v2.pageNo == 2 && v2.totalCount == 5 && v2.lastPage == 3 && v2.hasNext && v2.hasPrev)
        #expect(v2.products.map(\.id) == [3, 2] && v2.products.first?.vendorName == "vendor7")
        #expect(v2.products.first?.createdAt == Self.utc(2024, 3, 1, 9, 30, 15, hundredths: 25))
    }

    @Test func moneyIsExactDecimal() async throws {
        let body = try MarketFixture.json(MarketFixture.product(id: 1, price: 2.36, discount: 0.71))
        let product = try await Self.client(answering: body).product(id: 1)
        #expect(product.price == Decimal(string: "2.36") && product.discountedPrice == Decimal(string: "0.71"))
        #expect(product.bargainPrice == Decimal(string: "1.65") && product.price - product.discountedPrice == product.bargainPrice)
        #expect(MarketPriceFormat.string(product.price, currency: product.currency) == "USD 2.36")
        #expect(MarketPriceFormat.string(1_300_000, currency: .krw) == "KRW 1,300,000")
        #expect(MarketText.stock(0) == "품절" && MarketText.stock(12) == "잔여수량 : 12")
    }

    @Test func anEmptyAnswerPastTheEndIsAnEmptyLastPage() async throws {
        let page = try await Self.client(answering: Data(), status: 204, generation: .v2).products(page: 104)
        #expect(page.products.isEmpty && !page.hasNext && page.pageNo == 104)
    }
}
