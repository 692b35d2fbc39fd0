import Hummingbird

/// The Open Market's pages below `/market` (the product list itself is the app page `WebController` serves):
/// `/market/products/{id}` (a product, public), `/market/new` and `/market/products/{id}/edit` (one form for
/// registering and editing, as in the app) and `/market/vendor` (becoming a vendor, its identifier and secret).
/// `market.js` talks to `/api/products` and `/api/vendors` with the session cookie; the product changes carry the
/// vendor's `identifier` header and secret, which the script reads from `/api/vendors/me`. Signed-out visitors are
/// sent to log in first from the form (coming back to it afterwards) and see the log-in prompt on the vendor page.
/// An account that is no vendor yet is sent from `/market/new` to `/market/vendor?next=/market/new` by the script,
/// which becomes a vendor there and comes back.
struct MarketPages<Context: CallerRequestContext> {
    let renderer: WebPageRenderer
    /// The server's limit for one image (`MARKET_MAX_IMAGE_BYTES`): the form shrinks larger pictures to fit first.
    let maxImageBytes: Int

    static var app: WebApp { WebApp.all.first { $0.slug == "market" }! }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("market/products/{id}", use: productPage)
        routes.get("market/products/{id}/edit", use: editPage)
        routes.get("market/new", use: newPage)
        routes.get("market/vendor", use: vendorPage)
        return routes
    }

    private struct ProductContext {
        let productID: Int
        let visitor: WebVisitor?
    }

    private struct FormContext {
        /// For the log-in prompt.
        let app = MarketPages.app
        /// The product being edited; nil for a new one.
        let editing: Int?
        let maxImageBytes: Int
        let visitor: WebVisitor?
        let logInPath: String
    }

    private struct VendorContext {
        /// For the log-in prompt.
        let app = MarketPages.app
        let visitor: WebVisitor?
        let logInPath: String
        /// Where to go once the account is a vendor (`?next=`, a path on this site); nil to stay.
        let next: String?
    }

    @Sendable func productPage(_ request: Request, context: Context) async throws -> Response {
        let id = try productID(context)
        let visitor = renderer.visitor(of: context)
        return try renderer.render(
            "market-product", context: ProductContext(productID: id, visitor: visitor), title: "상품", current: Self.app,
            scripts: ["market.js"], visitor: visitor, request: request
        )
    }

    @Sendable func newPage(_ request: Request, context: Context) async throws -> Response {
        try formPage(editing: nil, request: request, context: context)
    }

    @Sendable func editPage(_ request: Request, context: Context) async throws -> Response {
        try formPage(editing: try productID(context), request: request, context: context)
    }

    @Sendable func vendorPage(_ request: Request, context: Context) async throws -> Response {
        let visitor = renderer.visitor(of: context)
        let next = LocalAddress.validated(request.uri.queryParameters.get("next"), default: "")
        let page = VendorContext(visitor: visitor, logInPath: request.logInPath, next: next.isEmpty ? nil : next)
        return try renderer.render(
            "market-vendor", context: page, title: "판매자 정보",
            current: Self.app, scripts: visitor == nil ? [] : ["market.js"], visitor: visitor, request: request
        )
    }

    /// The form is for signed-in accounts: anyone else logs in first and comes back here.
    private func formPage(editing: Int?, request: Request, context: Context) throws -> Response {
        guard let visitor = renderer.visitor(of: context) else { return .seeOther(request.logInPath) }
        let page = FormContext(editing: editing, maxImageBytes: maxImageBytes, visitor: visitor, logInPath: request.logInPath)
        return try renderer.render(
            "market-form", context: page, title: editing == nil ? "상품 등록" : "상품 수정", current: Self.app,
            scripts: ["market.js"], visitor: visitor, request: request
        )
    }

    private func productID(_ context: Context) throws -> Int {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else { throw HTTPError(.notFound) }
        return id
    }
}
