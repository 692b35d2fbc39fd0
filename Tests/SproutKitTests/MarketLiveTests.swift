import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// The market part of the kit against a real Sprout server, once per app generation: an account becomes a
/// vendor, registers a product with two real JPEGs, finds it in the list and by search, opens it, modifies it
/// and deletes it — and the server's refusals reach the screens.
@MainActor
@Suite struct MarketLiveTests {
    /// A signed-in account that is a vendor, and a market client with its credentials.
    static func vendor(_ name: String, base: URL, generation: MarketAPIGeneration) async throws -> (Session, MarketVendor, MarketClient) {
        let session = try await CommunityLiveTests.signedUp(name, base: base)
        let vendor = try await session.market(generation: generation).registerVendor(name: "\(name) 상회")
        return (session, vendor, session.market(generation: generation, credentials: vendor.credentials))
    }

    /// A URL the server wrote, on the address the test reached it at (the server knows no public URL in tests).
    static func local(_ url: URL, base: URL) -> URL {
        URL(string: url.path, relativeTo: base)!.absoluteURL
    }

    @Test(arguments: MarketAPIGeneration.allCases)
    func registerListSearchOpenModifyAndDelete(generation: MarketAPIGeneration) async throws {
        try await withLiveServer { base in
            let (session, vendor, client) = try await Self.vendor("seller\(generation.rawValue)", base: base, generation: generation)
            #expect(vendor.name == "seller\(generation.rawValue) 상회" && vendor.identifier.count == 36 && vendor.secret.count == 20)
            #expect(try await session.market().myVendor() == vendor)
            try await client.healthCheck()

            // Register through the form: two real JPEGs, the generation's description key.
            let form = ProductFormModel()
            for image in try MarketFixture.jpegs() { #expect(form.addImage(image)) }
            form.name = "  맥북 프로 14  "
            form.description = "애플 맥북 & 충전기"
            form.price = "2500000"
            form.discountedPrice = "100000"
            form.stock = "3"
            let product = try #require(await form.submit(using: client), "register failed: \(form.errorMessage ?? "?")")
            #expect(form.resultMessage == "상품 등록하였습니다.")
            #expect(product.name == "맥북 프로 14" && product.description == "애플 맥북 & 충전기" && product.vendorID == vendor.id)
            #expect(product.price == 2_500_000 && product.discountedPrice == 100_000 && product.bargainPrice == 2_400_000)
            #expect(product.stock == 3 && product.currency == .krw && product.vendor.name == vendor.name)
            #expect(product.images.count == 2 && product.thumbnailURL == product.images.first?.thumbnailURL)
            #expect(abs(product.createdAt.timeIntervalSinceNow) < 120)

            // The originals come back byte for byte, through the image cache.
            let cache = ImageCache(directory: nil)
            for (image, upload) in zip(product.images, try MarketFixture.jpegs()) {
                #expect(try await cache.data(for: Self.local(image.url, base: base)) == upload.data)
                #expect(try await cache.data(for: Self.local(image.thumbnailURL, base: base)).starts(with: [0xFF, 0xD8]))
            }

            // A second product, then the list (newest first) and a search.
            let other = try await client.register(
                MarketProductParams(name: "아이폰 15", description: "새 폰", price: 1_200_000, discountedPrice: 0, stock: 0, currency: "USD", secret: vendor.secret, generation: generation),
                images: [try MarketFixture.jpegs()[1]]
            )
            let list = ProductListStore(client: client, settings: InMemorySettingsStore(), itemsPerPage: 1)
            await list.refresh()
            #expect(list.products.map(\.id) == [other.id] && list.hasNext && list.totalCount == 2)
            await list.loadMore()
            #expect(list.products.map(\.id) == [other.id, product.id] && !list.hasNext && list.errorMessage == nil)
            let listed = try #require(list.products.last)
            #expect(listed.name == product.name && listed.price == product.price && listed.bargainPrice == product.bargainPrice)
            #expect(listed.vendorName == vendor.name && listed.description == product.description && listed.createdAt == product.createdAt)
            await list.search("충전기")
            #expect(list.products.map(\.id) == [product.id] && list.totalCount == 1)
            await list.search("없는 상품")
            #expect(list.products.isEmpty && list.hasLoaded && !list.hasNext)

            // The detail screen: the owner may edit; the edit form sends only what changed.
            let detail = ProductDetailStore(productID: product.id, client: client)
            await detail.load()
            #expect(detail.product == product && detail.canEdit)
            let edit = ProductFormModel(editing: try #require(detail.product))
            edit.description = "설명을 고쳤습니다"
            edit.discountedPrice = "500000"
            edit.thumbnailID = product.images[1].id
            let modified = try #require(await edit.submit(using: client), "modify failed: \(edit.errorMessage ?? "?")")
            detail.replace(modified)
            #expect(modified.description == "설명을 고쳤습니다" && modified.bargainPrice == 2_000_000 && modified.name == product.name)
            #expect(modified.thumbnailURL == product.images[1].thumbnailURL && modified.issuedAt == product.issuedAt)
            #expect(try await client.product(id: product.id) == modified)

            // Delete: a wrong secret is refused at the lookup; the right one deletes.
            #expect(await detail.delete(vendorSecret: "wrong-secret") == false)
            #expect(detail.errorMessage == "상품의 Secret을 불러오는데 실패하였습니다." && detail.lastError?.kind == .forbidden)
            #expect(await detail.delete(vendorSecret: vendor.secret), "delete failed: \(detail.errorMessage ?? "?")")
            #expect(detail.isDeleted && detail.resultMessage == "상품 삭제 완료하였습니다")
            await #expect { try await client.product(id: product.id) } throws: { ($0 as? APIError)?.statusCode == 404 }
            list.remove(productID: product.id)
            await list.search("")
            #expect(list.products.map(\.id) == [other.id] && list.totalCount == 1)
        }
    }

    @Test func anotherVendorCannotChangeTheProduct() async throws {
        try await withLiveServer { base in
            let (_, owner, ownerClient) = try await Self.vendor("owner", base: base, generation: .v3)
            let product = try await ownerClient.register(
                MarketProductParams(name: "주인의 상품", description: "", price: 1000, discountedPrice: 0, stock: 1, currency: "KRW", secret: owner.secret, generation: .v3),
                images: try MarketFixture.jpegs()
            )
            let (_, intruder, intruderClient) = try await Self.vendor("intruder", base: base, generation: .v2)
            let detail = ProductDetailStore(productID: product.id, client: intruderClient)
            await detail.load()
            #expect(!detail.canEdit && detail.canEdit(vendorID: owner.id))
            // Even if a screen offered it, the server refuses with 403.
            #expect(await detail.modify(MarketProductChanges(secret: intruder.secret, name: "남의 상품", generation: .v2)) == false)
            #expect(detail.lastError?.kind == .forbidden && detail.errorMessage == "상품 수정에 실패하였습니다.")
            await #expect { try await intruderClient.delete(id: product.id, vendorSecret: intruder.secret) } throws: { ($0 as? APIError)?.statusCode == 403 }
            // Credentials no vendor has: 401.
            var forged = intruder.credentials
            forged.identifier = UUID().uuidString.lowercased()
            let forgedClient = MarketClient(client: APIClient(baseURL: base), generation: .v2, credentials: forged)
            await #expect { try await forgedClient.modify(id: product.id, changes: MarketProductChanges(secret: intruder.secret, generation: .v2)) } throws: {
                ($0 as? APIError)?.sorted(for: .market, during: .modify).kind == .unauthorized
            }
            #expect(try await ownerClient.product(id: product.id).name == "주인의 상품")
        }
    }

    @Test func vendorsAreMadeOnceAndTheirSecretCanBeReplaced() async throws {
        try await withLiveServer { base in
            let (session, vendor, client) = try await Self.vendor("rotator", base: base, generation: .v3)
            await #expect { try await session.market().registerVendor(name: "두 번째 상회") } throws: {
                ($0 as? APIError)?.sorted(for: .market, during: .vendor).kind == .conflict
            }
            let other = try await CommunityLiveTests.signedUp("namesake", base: base)
            await #expect { try await other.market().registerVendor(name: vendor.name) } throws: { ($0 as? APIError)?.statusCode == 409 }
            await #expect { try await MarketClient(client: APIClient(baseURL: base)).myVendor() } throws: { ($0 as? APIError)?.statusCode == 401 }

            let product = try await client.register(
                MarketProductParams(name: "비밀 상품", description: "", price: 10, discountedPrice: 0, stock: 0, currency: "KRW", secret: vendor.secret, generation: .v3),
                images: [try MarketFixture.jpegs()[0]]
            )
            let rotated = try await session.market().rotateVendorSecret()
            #expect(rotated.id == vendor.id && rotated.identifier == vendor.identifier && rotated.secret != vendor.secret)
            await #expect { try await client.deleteTarget(id: product.id, vendorSecret: vendor.secret) } throws: { ($0 as? APIError)?.statusCode == 403 }
            let fresh = session.market(credentials: rotated.credentials)
            #expect(try await fresh.delete(id: product.id, vendorSecret: rotated.secret).id == product.id)
        }
    }

    @Test func theServersRulesReachTheScreen() async throws {
        try await withLiveServer { base in
            let (_, vendor, client) = try await Self.vendor("rules", base: base, generation: .v2)
            let images = try MarketFixture.jpegs()
            func params(name: String = "규칙 상품", price: Double = 1000, discount: Double = 0) -> MarketProductParams {
                MarketProductParams(name: name, description: "", price: price, discountedPrice: discount, stock: 0, currency: "KRW", secret: vendor.secret, generation: .v2)
            }
            let cases: [(MarketProductParams, [MarketUpload])] = [
                (params(), Array(repeating: images[0], count: 6)),
                (params(), []),
                (params(name: "가"), images),
                (params(discount: 2000), images),
                (params(), [MarketUpload(data: Data("not an image".utf8), format: .jpeg)]),
            ]
            for (sent, uploads) in cases {
                await #expect {
                    try await client.register(sent, images: uploads)
                } throws: { error in
                    let sorted = (error as? APIError)?.sorted(for: .market, during: .register)
                    return sorted?.kind == .invalidRequest && sorted?.serverMessage?.isEmpty == false && sorted?.message == sorted?.serverMessage
                }
            }
            let page = try await client.products()
            #expect(page.products.isEmpty && page.totalCount == 0 && !page.hasNext)
        }
    }
}
