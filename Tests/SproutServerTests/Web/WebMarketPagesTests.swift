import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// The Open Market's pages: the public list and product pages, and the form and vendor pages that need an account.
/// What their script does (listing, the carousel, registering, editing, deleting) is tested in
/// Tests/Browser/test_market.py.
@Suite struct WebMarketPagesTests {
    @Test func theListIsPublicWithItsLayoutToggleSearchAndEndlessScrolling() async throws {
        try await withTestApp { client, _ in
            let page = try await client.page("/market")
            #expect(page.status == .ok)
            #expect(page.body.contains("<title>마켓 · Sprout</title>"))
            for id in ["product-list", "product-row", "layout-list", "layout-grid", "search-form", "search-query", "search-clear",
                       "loading", "list-end", "list-empty", "retry", "sentinel", "new-product-link", "vendor-link"] {
                #expect(page.body.contains(#"id="\#(id)""#), "the list is missing #\(id)")
            }
            #expect(page.body.contains(#"loading="lazy""#), "thumbnails load as they come into view")
            #expect(page.body.contains("/static/market.js?v="))
            #expect(!page.body.contains(#"id="sign-in-prompt""#))
            #expect(page.body.contains(#"<a href="/market" aria-current="page">"#))
        }
    }

    @Test func aProductPageIsPublicAndOffersDeletingOnlyToSomeoneSignedIn() async throws {
        try await withTestApp { client, _ in
            let signedOut = try await client.page("/market/products/12")
            #expect(signedOut.status == .ok)
            #expect(signedOut.body.contains(#"data-product-id="12""#))
            for id in ["carousel", "carousel-prev", "carousel-next", "carousel-indicator", "product-name", "product-price",
                       "product-stock", "product-vendor", "product-description", "product-actions"] {
                #expect(signedOut.body.contains(#"id="\#(id)""#), "the product page is missing #\(id)")
            }
            #expect(signedOut.body.contains("/static/market.js?v="))
            #expect(!signedOut.body.contains("delete-dialog"), "a visitor without an account owns nothing")

            try await client.signUp("seller")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("seller"))
            let signedIn = try await client.page("/market/products/12", cookie: cookie)
            #expect(signedIn.body.contains(#"<dialog id="delete-dialog""#))
            #expect(signedIn.body.contains("정말 삭제하시겠습니까?"))
            #expect(!signedIn.body.contains("delete-secret"), "the page holds the vendor's secret: a confirmation is all it asks")
        }
    }

    /// The form is an action: a signed-out visitor goes to log in and comes back to it.
    @Test(arguments: ["/market/new", "/market/products/3/edit"])
    func signedOutVisitorsToTheFormAreSentToLogInAndBack(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/account/login?next=\(path)")
        }
    }

    @Test(arguments: ["/market/vendor"])
    func signedOutVisitorsToTheVendorPageSeeAPromptToLogIn(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .ok)
            #expect(page.body.contains(#"id="sign-in-prompt""#))
            #expect(page.body.contains("마켓 <span class=\"app-card-english\">Open Market</span>"))
            #expect(page.body.contains("판매자 등록과 상품 등록·수정은 로그인한 사람만 할 수 있어요."))
            #expect(page.body.contains(#"href="/account/login?next=\#(path)" id="prompt-login""#))
            #expect(!page.body.contains("market.js"), "nothing to run without an account")
            #expect(page.body.contains(#"<a href="/market" aria-current="page">"#))
        }
    }

    @Test func theCommunitysPromptStillSpeaksOfTheCommunity() async throws {
        try await withTestApp { client, _ in
            for path in ["/community", "/community/write"] {
                let page = try await client.page(path)
                #expect(page.body.contains("커뮤니티의 글과 댓글은 로그인한 사람만 볼 수 있어요."), "\(path)")
                #expect(page.body.contains("커뮤니티 <span class=\"app-card-english\">Community</span>"), "\(path)")
            }
        }
    }

    @Test func signedInVisitorsGetTheFormAndTheVendorScreen() async throws {
        try await withTestApp { client, _ in
            try await client.signUp("maker")
            let cookie = try WebSessionTests.cookie(from: try await client.logInOnWeb("maker"))
            let new = try await client.page("/market/new", cookie: cookie)
            #expect(new.body.contains(#"<h1 id="form-title">상품 등록</h1>"#))
            #expect(!new.body.contains("data-product-id"))
            #expect(new.body.contains(#"type="file" accept="image/jpeg,image/png" multiple"#))
            for id in ["product-form", "image-previews", "image-preview", "product-name-input", "product-price-input",
                       "product-discount-input", "product-stock-input", "currency-krw", "currency-usd",
                       "product-description-input", "description-count", "product-submit"] {
                #expect(new.body.contains(#"id="\#(id)""#), "the form is missing #\(id)")
            }
            #expect(new.body.contains(#"id="product-submit" disabled"#))
            #expect(new.body.contains("/static/market.js?v="))

            let edit = try await client.page("/market/products/5/edit", cookie: cookie)
            #expect(edit.body.contains(#"<h1 id="form-title">상품 수정</h1>"#))
            #expect(edit.body.contains(#"data-product-id="5""#))
            #expect(!edit.body.contains(#"type="file""#), "images are not editable, as in the app")
            #expect(edit.body.contains("image-thumbnail-choice"))

            let returning = try await client.page("/market/vendor?next=/market/new", cookie: cookie)
            #expect(returning.body.contains(#"data-next="/market/new""#), "becoming a vendor on the way to the form returns to it")
            #expect(returning.body.contains(#"id="vendor-why""#))
            for elsewhere in ["//evil.example", "https://evil.example/market/new"] {
                let page = try await client.page("/market/vendor?next=" + LocalAddress.encoded(elsewhere), cookie: cookie)
                #expect(!page.body.contains("data-next"), "\(elsewhere) is no page of this site")
            }

            let vendor = try await client.page("/market/vendor", cookie: cookie)
            #expect(!vendor.body.contains("data-next"))
            for id in ["vendor-form", "vendor-name", "vendor-submit", "vendor-info", "vendor-info-secret", "secret-toggle",
                       "secret-rotate", "rotate-dialog"] {
                #expect(vendor.body.contains(#"id="\#(id)""#), "the vendor screen is missing #\(id)")
            }
        }
    }

    @Test(arguments: ["/market/products/0", "/market/products/abc", "/market/products/-3", "/market/products/0/edit", "/market/products/x/edit"])
    func productPagesNeedAPositiveID(path: String) async throws {
        try await withTestApp { client, _ in
            let page = try await client.page(path)
            #expect(page.status == .notFound)
        }
    }

    /// The pages are the browser's; `/market/images/…` beside them is API the apps call, and stays in the document.
    @Test func theMarketPagesAreBrowserRoutesAndItsImagesAreNot() {
        for path in ["/market", "/market/new", "/market/vendor", "/market/products/{id}", "/market/products/{id}/edit"] {
            #expect(BrowserRoutes.contains(path), "\(path)")
        }
        #expect(!BrowserRoutes.contains("/market/images/{name}"))
        #expect(!BrowserRoutes.contains("/api/products/{id}"))
    }
}
