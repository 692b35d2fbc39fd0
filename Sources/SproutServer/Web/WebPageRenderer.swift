import Foundation
import HTTPTypes
import Hummingbird

/// Renders a page inside the shared layout, with the header showing who is signed in. Every page controller
/// (shell, accounts, community) renders through one of these.
struct WebPageRenderer: Sendable {
    let templates: WebTemplates
    let assets: StaticAssets
    let callers: any CallerResolving

    /// The signed-in account looking at the page, if any.
    func visitor(of request: Request) async throws -> WebVisitor? {
        try await callers.caller(of: request).account.map(WebVisitor.init)
    }

    /// `scripts` are the page's own, loaded after `site.js` (the header's log-out and the shared helpers).
    func render(
        _ template: String, context: Any, title: String, current: WebApp?, scripts: [String] = [],
        visitor: WebVisitor?, request: Request
    ) throws -> Response {
        let layout = LayoutContext(
            title: title,
            pageName: current?.slug ?? template,
            assetVersion: assets.version,
            nav: WebApp.all.map { .init(name: $0.name, path: $0.path, current: $0.slug == current?.slug) },
            scripts: ["site.js"] + scripts,
            visitor: visitor,
            logInPath: request.logInPath
        )
        do {
            return .html(try templates.page(template, context: context, layout: layout))
        } catch {
            throw HTTPError(.internalServerError, message: "Server Error")
        }
    }
}

extension Response {
    /// A 303 to a page of this site (after a check that decided the visitor belongs elsewhere).
    static func seeOther(_ path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path, .cacheControl: "private, no-store", .vary: "Cookie"])
    }
}
