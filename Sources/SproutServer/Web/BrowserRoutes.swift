/// The browser app's own routes: its pages, static files and the JSON only its scripts use (`/web/...`, the
/// session routes). The OpenAPI document describes the APIs the iOS apps call and leaves these out.
enum BrowserRoutes {
    static let prefixes = ["/static/", "/account/", "/community/", "/web/"]

    static func contains(_ path: String) -> Bool {
        path == "/" || WebApp.all.contains { $0.path == path } || prefixes.contains { path.hasPrefix($0) }
    }
}
