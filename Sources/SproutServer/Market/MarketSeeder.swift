import Foundation
import NIOCore

/// Demo products for `sprout seed --products` (and the market benchmark's 20,000): a vendor "새싹상회" for the
/// account `demo1`, and products with real images — each a small PNG of its own, checked, thumbnailed and
/// stored exactly as an upload is. Products are newest last, so the list shows the highest numbers first.
public struct MarketSeeder: Sendable {
    let database: SproutDatabase
    let parts: MarketParts
    let administration: VendorAdministration

    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        self.database = database
        let sealer = SecretSealer(configuration)
        parts = MarketParts(configuration, executor: database.executor, sealer: sealer, images: SystemImageProcessor())
        administration = VendorAdministration(database: database, sealer: sealer)
    }

    static let names = [
        "아이폰 13 미니", "맥북 에어 M2", "에어팟 프로", "갤럭시 탭 S8", "기계식 키보드", "Swift 책", "USB-C 케이블",
        "아이패드 미니", "Apple Watch SE", "무선 마우스", "모니터 27인치", "Magic Trackpad",
    ]
    static let descriptions = [
        "거의 새 것입니다. 직거래 가능해요.", "A few scratches, works perfectly.", "박스 포함 풀구성", "선물 받았는데 안 써서 팝니다",
        "Battery health 91%", "새싹 캠프에서 쓰던 물건",
    ]

    /// Adds `count` products for the demo vendor (made if missing, on the account `accountUsername`, which must
    /// exist). Returns the vendor's name.
    public func seed(products count: Int, accountUsername: String = "demo1", progress: @Sendable (Int) -> Void = { _ in }) async throws -> String {
        let vendor: VendorSummary
        do {
            vendor = try await administration.find(accountUsername)
        } catch VendorAdministrationError.notAVendor {
            vendor = try await administration.create(account: accountUsername, name: "새싹상회", by: .commandLine())
        }
        for number in 0..<count {
            let image = ByteBuffer(bytes: DemoProductImage.png(width: 96, height: 72, seed: number))
            let processed = try await parts.products.images.process(image)
            let stored = StoredMarketImage(storageKey: MarketImageFileName.randomKey(), format: processed.format, byteCount: image.readableBytes)
            let staged = try await parts.storage.stage(image, thumbnail: processed.thumbnail, as: stored)
            let price = Double((number % 50 + 1) * 10_000)
            let draft = MarketProductDraft(
                name: "\(Self.names[number % Self.names.count]) #\(number + 1)",
                description: Self.descriptions[number % Self.descriptions.count],
                currency: number % 7 == 0 ? .usd : .krw, price: price,
                discountedPrice: number % 3 == 0 ? price / 10 : 0, stock: number % 5
            )
            do {
                let placement = try await parts.storage.placement(of: staged)
                _ = try await parts.products.repository.create(
                    draft, vendorID: vendor.id, images: [stored], placing: placement,
                    creationKey: UUID().uuidString.lowercased(), at: Date()
                )
            } catch {
                await parts.storage.discard(staged)  // nothing if they were placed
                throw error
            }
            if number + 1 == count || (number + 1) % 1000 == 0 { progress(number + 1) }
        }
        if database.executor.dialect == .postgres {
            try await database.executor.writeAll(["ANALYZE market_products", "ANALYZE market_images"])
        }
        return vendor.name
    }
}
