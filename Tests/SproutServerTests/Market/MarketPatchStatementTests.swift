import Foundation
import Testing
@testable import SproutServer

/// A PATCH answers from what its UPDATE returned: reads of the product, the UPDATE, and no read after it.
@Suite struct MarketPatchStatementTests {
    @Test func aPatchIsAnsweredFromItsUpdateWithoutReadingTheProductAgain() async throws {
        try await withTestApp { client, database in
            let vendor = try await client.makeVendor("patcher")
            let id = try #require(try await client.registerProduct(as: vendor, price: "1000", stock: "3")["id"]?.int)
            let counting = CountingExecutor(base: database.executor)
            var configuration = SproutConfiguration()
            configuration.data.secretsKey = SecretSealer.testKey
            let market = MarketParts(configuration, executor: counting, sealer: .forTests, images: SystemImageProcessor())
            let seller = try #require(try await market.vendors.repository.vendor(accountID: vendor.account.id))
            counting.reset()
            let fields = FormFields(["secret": .text(vendor.secret), "stock": .number("7"), "discounted_price": .number("100")])
            let patched = try await market.products.modify(id: id, vendor: seller, fields: fields)
            // The ownership check, the read inside the product's turn, the UPDATE … RETURNING.
            #expect(counting.statements == 3)
            #expect(patched.stock == 7 && patched.discountedPrice == 100 && patched.price == 1000 && patched.images.count == 1)
            #expect(try await market.products.repository.product(id: id) == patched)
        }
    }
}
