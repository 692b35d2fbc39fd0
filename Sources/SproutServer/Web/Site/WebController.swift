import Foundation
import HTTPTypes
import Hummingbird

/// The browser app's shell: `/` (home), each app's page (Todos, the Diary, Community, the Open Market and the Board),
/// and `/static/{file}`. Pages are rendered on the server; their scripts talk to the JSON APIs with the session
/// cookie. Account, Community, Market, Board and Diary sub-pages live in `AccountPages`, `CommunityPages`,
/// `MarketPages`, `BoardPages` and `DiaryPages`.
struct WebController<Context: CallerRequestContext> {
    let renderer: WebPageRenderer
    var assets: StaticAssets { renderer.assets }

    init(renderer: WebPageRenderer) {
        self.renderer = renderer
    }

    /// Loads templates and static files from the web folders built into the binary. They are part of the build,
    /// so an error here means a broken build.
    init(authenticator: AccountAuthenticator) {
        do {
            let folders = try WebResources.embedded()
            self.init(renderer: WebPageRenderer(
                templates: try WebTemplates(folders: folders), assets: try StaticAssets(folders: folders), authenticator: authenticator
            ))
        } catch {
            fatalError("Sprout's web resources (\(WebResources.folders)) could not be loaded: \(error)")
        }
    }

    /// Home and the apps' pages, which show who is signed in.
    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get { request, context in try self.home(request, context: context) }
        for app in WebApp.all {
            routes.get(RouterPath(app.slug)) { request, context in try self.appPage(app, request: request, context: context) }
        }
        return routes
    }

    /// `/static/{file}`: the same for everyone, so it is added before the caller is resolved and a browser's
    /// session cookie costs no lookup per script and stylesheet.
    var assetEndpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self).get("static/{file}", use: staticFile)
    }

    private struct HomeContext {
        let apps: [WebApp]
    }

    private struct AppContext {
        let app: WebApp
        let visitor: WebVisitor?
        let logInPath: String
    }

    func home(_ request: Request, context: Context) throws -> Response {
        let visitor = renderer.visitor(of: context)
        return try renderer.render("home", context: HomeContext(apps: WebApp.all), title: "홈", current: nil, visitor: visitor, request: request)
    }

    /// An app's page. Pages that differ by account (Todos shows whose list it is; Community and Board ask signed-out
    /// visitors to log in; the market's list is public) get the visitor.
    func appPage(_ app: WebApp, request: Request, context: Context) throws -> Response {
        let visitor = renderer.visitor(of: context)
        let page = AppContext(app: app, visitor: visitor, logInPath: request.logInPath)
        // A signed-out visitor to an account-only app (Community, Board, Diary) sees only the log-in prompt: no script to run.
        let scripts = app.accountOnly && visitor == nil ? [] : ["\(app.slug).js"]
        return try renderer.render(app.slug, context: page, title: app.name, current: app, scripts: scripts, visitor: visitor, request: request)
    }

    @Sendable func staticFile(_ request: Request, context: Context) throws -> Response {
        guard let name = context.parameters.get("file"), let asset = assets[name] else { throw HTTPError(.notFound) }
        // A URL carrying the current version never changes; any other may, so it is revalidated each time.
        let versioned = request.uri.queryParameters.get("v") == assets.version
        let headers: HTTPFields = [
            .contentType: asset.contentType,
            .cacheControl: versioned ? "public, max-age=31536000, immutable" : "no-cache",
            .eTag: asset.etag,
            .xContentTypeOptions: "nosniff",
        ]
        if let candidates = request.headers[.ifNoneMatch], Self.matches(candidates, etag: asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    /// `If-None-Match`: `*`, or a list of tags, weak ones (`W/"…"`) included, as RFC 9110 compares them for GET.
    static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}
