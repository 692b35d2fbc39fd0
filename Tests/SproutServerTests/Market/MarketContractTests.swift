import Foundation
import HTTPTypes
import SproutWire
import Testing
@testable import SproutServer

/// The market's answers against the captured ones: what a v2 app and a v3 app decode, the dual envelope, the
/// money and date rules, and the status codes of the contract.
@Suite struct MarketContractTests {
    /// The v2 seed app's list DTO (snake_case keys by CodingKeys, as `ic_6_sookoong` declares them).
    struct V2AppPage: Decodable {
        let page_no: Int, items_per_page: Int, total_count: Int, offset: Int, limit: Int, last_page: Int
        let has_next: Bool, has_prev: Bool
        let pages: [V2AppItem]
    }

    struct V2AppItem: Decodable {
        let id: Int, vendor_id: Int, name: String, thumbnail: String, currency: String, stock: Int
        let price: Double, bargain_price: Double, discounted_price: Double, created_at: String, issued_at: String
    }

    struct V2AppDetail: Decodable {
        let id: Int, vendor_id: Int, name: String, description: String, price: Double, bargain_price: Double
        let images: [Image]
        let vendors: Vendor
        struct Image: Decodable { let id: Int, url: String, thumbnail_url: String, succeed: Bool, issued_at: String }
        struct Vendor: Decodable { let name: String, id: Int, created_at: String, issued_at: String }
    }

    /// A v3 app's DTOs, decoded with `.convertFromSnakeCase` as derrickkim0109's refactor does; the dual
    /// envelope then holds each key twice, with the same value.
    struct V3AppPage: Decodable {
        let pageNo: Int, itemsPerPage: Int, totalCount: Int, offset: Int, limit: Int, lastPage: Int
        let hasNext: Bool, hasPrev: Bool
        let pages: [V3AppItem]
    }

    struct V3AppItem: Decodable {
        let id: Int, vendorId: Int, vendorName: String, name: String, description: String, thumbnail: String
        let currency: String, price: Double, bargainPrice: Double, discountedPrice: Double, stock: Int
        let createdAt: String, issuedAt: String
    }

    struct V3AppDetail: Decodable {
        let id: Int, vendorId: Int, name: String, description: String, thumbnail: String
        let images: [Image]
        let vendors: Vendor
        struct Image: Decodable { let id: Int, url: String, thumbnailUrl: String, issuedAt: String }
        struct Vendor: Decodable { let id: Int, name: String }
    }

    static let snakeCase: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    @Test func capturedFixturesDecodeThroughTheSharedWireTypes() throws {
        for name in ["official-sample-products", "v2-list-page1-capture", "v3-list-page1-capture", "v3-list-page3-capture"] {
            let page = try JSONDecoder().decode(MarketPageJSON.self, from: try fixtureData("market/\(name).json"))
            #expect(!page.pages.isEmpty, "\(name)")
        }
        let v3 = try JSONDecoder().decode(MarketPageJSON.self, from: try fixtureData("market/v3-list-page3-capture.json"))
        #expect(v3.pageNo == 3 && v3.offset == 40 && v3.limit == 60)
        for name in ["v2-detail-capture", "v2-post-response-capture", "v2-patch-response-capture", "v3-detail-capture"] {
            let product = try JSONDecoder().decode(MarketProductJSON.self, from: try fixtureData("market/\(name).json"))
            #expect(product.bargainPrice == product.price - product.discountedPrice, "\(name)")
            #expect(MarketTimestamp.date(from: product.createdAt) != nil, "\(name)")
        }
    }

    @Test func healthCheckerAnswersTheFourBytesOK() async throws {
        try await withTestApp { client, _ in
            let response = try await client.raw(.get, "/healthChecker")
            #expect(response.status == .ok)
            #expect(response.body == Array("\"OK\"".utf8))
        }
    }

    @Test func registerAnswers201WithAProductBothGenerationsDecode() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("seller", name: "새싹상회")
            let before = Date()
            let json = try await client.registerProduct(as: vendor, name: "  아이폰 13 미니 ", description: "상태 좋음", price: "1500000", discount: "100000", stock: "3")
            let data = try JSONEncoder().encode(json)
            let v2 = try JSONDecoder().decode(V2AppDetail.self, from: data)
            let v3 = try Self.snakeCase.decode(V3AppDetail.self, from: data)
            let shared = try JSONDecoder().decode(MarketProductJSON.self, from: data)
            #expect(v2.name == "아이폰 13 미니" && v3.name == "아이폰 13 미니")
            #expect(v2.description == "상태 좋음" && v3.description == "상태 좋음")
            #expect(v2.price == 1_500_000 && v2.bargain_price == 1_400_000 && shared.discountedPrice == 100_000)
            #expect(v2.vendor_id == vendor.id && v3.vendors.id == vendor.id && v3.vendors.name == "새싹상회")
            #expect(v2.images.count == 1 && v2.images[0].succeed)
            #expect(shared.thumbnail == v2.images[0].thumbnail_url)
            #expect(shared.createdAt == shared.issuedAt)
            let created = try #require(MarketTimestamp.date(from: shared.createdAt))
            #expect(abs(created.timeIntervalSince(before)) < 60)
            // v2's date form: 2022-01-19T08:25:27.27 — no zone, two fraction digits.
            #expect(shared.createdAt.count == 22 && !shared.createdAt.hasSuffix("Z"))
        }
    }

    @Test func moneyIsWrittenAsJSONDoubles() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("money")
            let json = try await client.registerProduct(as: vendor, price: "1200", discount: "0.5")
            let id = try #require(json["id"]?.int)
            let detail = try await client.raw(.get, "/api/products/\(id)")
            #expect(detail.text.contains(#""price":1200.0"#))
            #expect(detail.text.contains(#""bargain_price":1199.5"#))
            #expect(detail.text.contains(#""discounted_price":0.5"#))
        }
    }

    @Test func listCarriesBothEnvelopesNewestFirst() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("lister")
            var ids: [Int] = []
            for index in 1...5 {
                ids.append(try #require(try await client.registerProduct(as: vendor, name: "상품 \(index)")["id"]?.int))
            }
            let response = try await client.raw(.get, "/api/products?page_no=2&items_per_page=2")
            #expect(response.status == .ok)
            let data = Data(response.body)
            let v2 = try JSONDecoder().decode(V2AppPage.self, from: data)
            let v3 = try Self.snakeCase.decode(V3AppPage.self, from: data)
            #expect(v2.page_no == 2 && v2.items_per_page == 2 && v2.total_count == 5 && v2.offset == 2 && v2.limit == 4)
            #expect(v2.last_page == 3 && v2.has_next && v2.has_prev)
            #expect(v3.pageNo == 2 && v3.totalCount == 5 && v3.lastPage == 3 && v3.hasNext && v3.hasPrev)
            #expect(v2.pages.map(\.id) == [ids[2], ids[1]])
            #expect(v3.pages.map(\.vendorName) == ["lister-shop", "lister-shop"])
            #expect(v3.pages[0].description == "거의 새 것")
            #expect(v2.pages[0].thumbnail.contains("/market/images/") && v2.pages[0].thumbnail.hasSuffix("_thumb.jpg"))
        }
    }

    @Test func pagesCutFromEitherEndCoverTheListOnce() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("ends")
            var ids: [Int] = []
            for index in 1...7 { ids.append(try #require(try await client.registerProduct(as: vendor, name: "끝에서 \(index)")["id"]?.int)) }
            var seen: [Int] = []
            for page in 1...4 {
                let response = try await client.send(.get, "/api/products?page_no=\(page)&items_per_page=2")
                seen += response.json?["pages"]?.array?.compactMap { $0["id"]?.int } ?? []
            }
            #expect(seen == ids.reversed())
        }
    }

    @Test func listPagingDefaultsClampsAndEnds() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("pager")
            try await client.registerProduct(as: vendor)
            let defaults = try await client.send(.get, "/api/products")
            #expect(defaults.json?["page_no"]?.int == 1 && defaults.json?["items_per_page"]?.int == 20)
            let clamped = try await client.send(.get, "/api/products?page_no=0&items_per_page=1000")
            #expect(clamped.json?["page_no"]?.int == 1 && clamped.json?["items_per_page"]?.int == 100)
            let tooFew = try await client.send(.get, "/api/products?items_per_page=-5")
            #expect(tooFew.json?["items_per_page"]?.int == 1)
            let past = try await client.send(.get, "/api/products?page_no=9")
            #expect(past.status == .ok && past.json?["pages"] == .array([]) && past.json?["total_count"]?.int == 1)
            #expect(past.json?["has_next"] == .bool(false) && past.json?["has_prev"] == .bool(true))
            let bad = try await client.send(.get, "/api/products?page_no=two")
            #expect(bad.status == .badRequest && bad.json?["code"]?.int == 400 && bad.json?["message"]?.string != nil)
        }
    }

    @Test func searchValueMatchesNameOrDescriptionIgnoringCase() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("searcher")
            let phone = try #require(try await client.registerProduct(as: vendor, name: "iPhone 13 Mini", description: "배터리 90%")["id"]?.int)
            let tablet = try #require(try await client.registerProduct(as: vendor, name: "갤럭시 탭", description: "공지사항입니다 IPHONE 아님")["id"]?.int)
            try await client.registerProduct(as: vendor, name: "맥북 프로", description: "M1")
            func ids(_ query: String) async throws -> [Int] {
                let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
                let response = try await client.send(.get, "/api/products?search_value=\(encoded)")
                #expect(response.json?["total_count"]?.int == response.json?["pages"]?.array?.count)
                return response.json?["pages"]?.array?.compactMap { $0["id"]?.int } ?? []
            }
            #expect(try await ids("iphone") == [tablet, phone])
            #expect(try await ids("공지") == [tablet])
            #expect(try await ids("배터리 90%") == [phone])
            #expect(try await ids("90%") == [phone])
            #expect(try await ids("없는상품") == [])
            #expect(try await ids("") .count == 3)  // an empty search is no search
            // Bytes that are not UTF-8 are refused, not read as no search (which listed everything).
            let invalid = try await client.send(.get, "/api/products?search_value=%FF%FE")
            #expect(invalid.status == .badRequest && invalid.json?["message"]?.string?.contains("search_value") == true)
        }
    }

    @Test func detailOfAnUnknownProductIs404InTheMarketShape() async throws {
        try await withTestApp { client, _ in
            for path in ["/api/products/999", "/api/products/abc", "/api/products/-1"] {
                let response = try await client.send(.get, path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.json?["code"]?.int == 404 && response.json?["message"]?.string != nil, "\(path)")
            }
        }
    }

    @Test func paramsAcceptJSONNumbersAContentTypeAndTheV3DescriptionKey() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("typed")
            let params = #"{"name": "USB-C 케이블", "description": "1m", "price": 2.36, "discounted_price": 0.71, "stock": 10, "currency": "usd", "secret": "\#(vendor.secret)"}"#
            let response = try await client.register(
                parts: [.params(params, contentType: "application/json"), .image(try TestImages.png(width: 50, height: 40), filename: "cable.png", contentType: "image/png")],
                identifier: vendor.identifier
            )
            #expect(response.status == .created)
            let product = try JSONDecoder().decode(MarketProductJSON.self, from: Data(response.body))
            #expect(product.description == "1m" && product.currency == "USD" && product.stock == 10)
            #expect(abs(product.bargainPrice - 1.65) < 1e-9)
            #expect(product.images[0].url.hasSuffix(".png"))
        }
    }

    @Test func omittedOptionalFieldsTakeTheirDefaults() async throws {
        try await withTestApp { client, _ in
            let vendor = try await client.makeVendor("minimal")
            let params = #"{"name": "최소 상품", "price": "1000", "currency": "KRW", "secret": "\#(vendor.secret)"}"#
            let response = try await client.register(parts: [.params(params), .image(try TestImages.jpeg(width: 64, height: 64))], identifier: vendor.identifier)
            #expect(response.status == .created)
            #expect(response.json?["description"] == .string(""))
            #expect(response.json?["discounted_price"]?.number == 0 && response.json?["stock"]?.int == 0)
        }
    }

    @Test func breakingARuleIsA400NamingTheField() async throws {
        try await withTestApp { client, database in
            let vendor = try await client.makeVendor("rules")
            let cases: [(String, String)] = [
                (#""name": "ab", "price": "1", "currency": "KRW""#, "name"),
                (#""name": "\#(String(repeating: "가", count: 101))", "price": "1", "currency": "KRW""#, "name"),
                (#""name": "좋은 상품", "description": "\#(String(repeating: "a", count: 1001))", "price": "1", "currency": "KRW""#, "description"),
                (#""name": "좋은 상품", "price": "-1", "currency": "KRW""#, "price"),
                (#""name": "좋은 상품", "price": "abc", "currency": "KRW""#, "price"),
                (#""name": "좋은 상품", "price": "100", "discounted_price": "101", "currency": "KRW""#, "discounted_price"),
                (#""name": "좋은 상품", "price": "100", "stock": "1.5", "currency": "KRW""#, "stock"),
                (#""name": "좋은 상품", "price": "100", "stock": "-1", "currency": "KRW""#, "stock"),
                (#""name": "좋은 상품", "price": "100", "currency": "JPY""#, "currency"),
                (#""name": "좋은 상품", "currency": "KRW""#, "price"),
            ]
            for (fields, field) in cases {
                let params = "{\(fields), \"secret\": \"\(vendor.secret)\"}"
                let response = try await client.register(parts: [.params(params), .image(try TestImages.jpeg(width: 32, height: 32))], identifier: vendor.identifier)
                #expect(response.status == .badRequest, "\(fields)")
                #expect(response.json?["code"]?.int == 400, "\(fields)")
                #expect(response.json?["message"]?.string?.contains(field) == true, "\(fields): \(response.text)")
            }
            #expect(try await database.marketCount("market_products") == 0)
        }
    }

    private func fixtureData(_ path: String) throws -> Data {
        try JSONEncoder().encode(try Fixture.json(path))
    }
}
