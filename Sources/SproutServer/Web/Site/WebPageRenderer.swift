import Foundation
import HTTPTypes
import Hummingbird

/// Renders a page inside the shared layout, with the header showing who is signed in. Every page controller
/// (shell, accounts and every app's pages) renders through one of these.
struct WebPageRenderer: Sendable {
    let templates: WebTemplates
    let assets: StaticAssets
    /// Asked only by error pages (below).
    let authenticator: AccountAuthenticator

    /// The signed-in account looking at the page, if any.
    func visitor(of context: some CallerRequestContext) -> WebVisitor? {
        context.caller.account.map(WebVisitor.init)
    }

    /// `scripts` are the page's own, loaded after `site.js` (the header's log-out and the shared helpers).
    func render(
        _ template: String, context: Any, title: String, current: WebApp?, scripts: [String] = [],
        visitor: WebVisitor?, request: Request, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let layout = LayoutContext(
            title: title,
            pageName: current?.slug ?? template,
            assetVersion: assets.version,
            nav: WebApp.all.map { .init(name: $0.name, path: $0.path, current: $0.slug == current?.slug) },
            scripts: ["site.js"] + scripts,
            visitor: visitor,
            logInPath: "/account/login?next=" + LocalAddress.encoded(request.returnAddress),
            signUpPath: "/account/signup?next=" + LocalAddress.encoded(request.returnAddress),
            console: request.uri.path == "/admin" || request.uri.path.hasPrefix("/admin/")
        )
        do {
            return .html(try templates.page(template, context: context, layout: layout), status: status)
        } catch {
            throw HTTPError(.internalServerError, message: "Server Error")
        }
    }
}

extension Request {
    /// Where the header's log-in and sign-up links come back to: this page, or on the log-in and sign-up pages
    /// their own `next` (so a visitor who switches between them still ends up where they started).
    var returnAddress: String {
        guard uri.path == "/account/login" || uri.path == "/account/signup" else { return pageAddress }
        return LocalAddress.validated(uri.queryParameters.get("next"), default: "/community")
    }
}

// MARK: - Error pages

extension WebPageRenderer {
    private struct ErrorContext {
        let status: Int
        let heading: String
        let explanation: String
        /// The app the address belongs to (`/community/posts/abc` → Community), for a link back to its first page.
        let app: WebApp?
    }

    /// The page a browser gets instead of JSON when a web address fails: an unknown page, a malformed id in a page's
    /// path (`/community/posts/abc`), or a server error while rendering one. It has the site's header (who is signed
    /// in, the apps) and keeps the status code. A credential that cannot be checked just shows the signed-out header.
    func errorPage(status: HTTPResponse.Status, request: Request) async -> Response? {
        // Drawn outside the route that failed (an unknown address has none), where the caller `CallerMiddleware`
        // resolved is out of reach: the error page asks again. Only HTML error pages pay this.
        let visitor = (try? await authenticator.caller(of: request))?.account.map(WebVisitor.init)
        let app = WebApp.all.first { request.uri.path == $0.path || request.uri.path.hasPrefix($0.path + "/") }
        let (heading, explanation) = Self.texts(for: status)
        let context = ErrorContext(status: Int(status.code), heading: heading, explanation: explanation, app: app)
        return try? render("error", context: context, title: heading, current: app, visitor: visitor, request: request, status: status)
    }

    static func texts(for status: HTTPResponse.Status) -> (heading: String, explanation: String) {
        switch status.code {
        case 404:
            ("페이지를 찾을 수 없어요", "주소가 잘못되었거나, 찾는 글이나 상품이 삭제되었을 수 있어요. 주소를 확인하거나 홈에서 다시 찾아 주세요.")
        case 400:
            ("잘못된 요청이에요", "주소나 보낸 내용을 이해하지 못했어요. 주소를 확인해 주세요.")
        case 403:
            ("볼 수 없는 페이지예요", "이 페이지를 볼 권한이 없어요.")
        case 500...:
            ("잠시 문제가 생겼어요", "서버에서 오류가 났어요. 잠시 뒤에 다시 시도해 주세요.")
        default:
            ("요청을 처리하지 못했어요", "잠시 뒤에 다시 시도해 주세요.")
        }
    }

    /// Addresses answered in JSON when they fail, as their contracts say: the APIs the apps and the page scripts call,
    /// the health checks, the OpenAPI document, the session routes, product images and static files. Every other
    /// address is a page, and fails with an HTML page.
    static func isAPIPath(_ path: String) -> Bool {
        let exact = ["/posts", "/comments", "/healthChecker", "/health", "/openapi.json"]
        let prefixes = ["/api/", "/auth/", "/users/", "/posts/", "/comments/", "/custom/", "/web/", "/health/",
                        "/healthChecker/", "/openapi.json/", "/market/images/", "/static/"]
        return exact.contains(path) || prefixes.contains { path.hasPrefix($0) }
    }
}

extension Response {
    /// A 303 to a page of this site (after a check that decided the visitor belongs elsewhere).
    static func seeOther(_ path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path, .cacheControl: "private, no-store", .vary: "Cookie"])
    }
}
