import Foundation
import HTTPTypes
import Hummingbird

/// The browser app: `/` (home), `/todos`, a "coming soon" page for each app without a web page yet, and
/// `/static/{file}`. Pages are rendered on the server; the Todos page's script talks to the JSON API.
struct WebController<Context: RequestContext> {
    let templates: WebTemplates
    let assets: StaticAssets

    init(templates: WebTemplates, assets: StaticAssets) {
        self.templates = templates
        self.assets = assets
    }

    /// Loads templates and static files from the SproutServer resource bundle. They are part of the build, so
    /// their absence means a broken install (the `*.resources` folder must sit beside the `sprout` binary).
    init() {
        do {
            guard let templates = Bundle.module.url(forResource: "Templates", withExtension: nil),
                  let assets = Bundle.module.url(forResource: "Static", withExtension: nil)
            else { throw CocoaError(.fileNoSuchFile) }
            self.init(templates: try WebTemplates(directory: templates), assets: try StaticAssets(directory: assets))
        } catch {
            fatalError("Sprout's web resources (Web/Templates, Web/Static) could not be loaded from \(Bundle.module.bundlePath): \(error)")
        }
    }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get { _, _ in try self.home() }
        for app in WebApp.all {
            routes.get(RouterPath(app.slug)) { _, _ in try self.appPage(app) }
        }
        routes.get("static/{file}", use: staticFile)
        return routes
    }

    private struct HomeContext {
        let apps: [WebApp]
    }

    private struct AppContext {
        let app: WebApp
    }

    func home() throws -> Response {
        try render("home", context: HomeContext(apps: WebApp.all), title: "홈", current: nil)
    }

    func appPage(_ app: WebApp) throws -> Response {
        if app.available {
            return try render(app.slug, context: AppContext(app: app), title: app.name, current: app, script: "\(app.slug).js")
        }
        return try render("coming-soon", context: AppContext(app: app), title: "\(app.name) (준비 중)", current: app)
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

    private func render(_ template: String, context: Any, title: String, current: WebApp?, script: String? = nil) throws -> Response {
        let layout = LayoutContext(
            title: title,
            pageName: current?.slug ?? template,
            assetVersion: assets.version,
            nav: WebApp.all.map { .init(name: $0.name, path: $0.path, current: $0.slug == current?.slug) },
            script: script
        )
        do {
            return .html(try templates.page(template, context: context, layout: layout))
        } catch {
            throw HTTPError(.internalServerError, message: "Server Error")
        }
    }
}
