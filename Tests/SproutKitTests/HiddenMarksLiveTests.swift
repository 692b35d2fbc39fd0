import Foundation
import SproutKit
import SproutServer
import SproutWire
import Testing

/// What a moderator hid reaches its author through the kit marked (`isHidden`), and nobody else at all.
@MainActor @Suite struct HiddenMarksLiveTests {
    @Test func theAuthorGetsHiddenItemsMarkedAndOthersDoNotGetThem() async throws {
        try await withLiveServerAndDatabase { base, database in
            let author = try await CommunityLiveTests.signedUp("author", base: base)
            let reader = try await CommunityLiveTests.signedUp("reader", base: base)
            let post = try await author.community.createPost(text: "숨겨질 글")
            let comment = try await author.community.createComment(postID: post.id, text: "숨겨질 댓글")
            let (_, vendor, market) = try await MarketLiveTests.vendor("seller", base: base, generation: .v3)
            let params = MarketProductParams(
                name: "숨겨질 상품", description: "", price: 1000, discountedPrice: 0, stock: 1, currency: "KRW",
                secret: vendor.secret, generation: .v3
            )
            let product = try await market.register(params, images: try MarketFixture.jpegs())
            #expect(!post.isHidden && !comment.isHidden && !product.isHidden)

            let moderation = Moderation(database: database, configuration: SproutConfiguration())
            _ = try await moderation.apply(.hide, to: .post, ids: [post.id], by: .commandLine())
            _ = try await moderation.apply(.hide, to: .comment, ids: [comment.id], by: .commandLine())
            _ = try await moderation.apply(.hide, to: .product, ids: [product.id], by: .commandLine())

            #expect(try await author.community.post(id: post.id).isHidden)
            #expect(try await author.community.comments(postID: post.id).first?.isHidden == true)
            #expect(try await market.product(id: product.id).isHidden)
            await #expect { try await reader.community.post(id: post.id) } throws: { ($0 as? APIError)?.statusCode == 404 }
            await #expect { try await reader.market().product(id: product.id) } throws: { ($0 as? APIError)?.statusCode == 404 }
        }
    }
}
