/// The browser app's own routes: its pages, static files and the JSON only its scripts use (`/web/...`, the
/// session routes). The OpenAPI document describes the APIs the iOS apps call and leaves these out. The market's
/// pages are named one by one: `/market/images/…` beside them is API (the apps load product images from it), and so is
/// `/account` (the account's page; its API is `/users/me…`), while everything below `/account/` is pages. The
/// board's API is `/api/v2/boards…` and the diary's `/api/diary/…`, so everything below `/board/` and `/diary/` is pages. The console
/// (`/admin…`) is pages and form posts only.
enum BrowserRoutes {
    static let prefixes = ["/static/", "/account/", "/community/", "/web/", "/market/products/", "/board/", "/diary/", "/admin/"]
    static let pages = ["/account", "/admin", "/market/new", "/market/vendor"]

    static func contains(_ path: String) -> Bool {
        path == "/" || WebApp.all.contains { $0.path == path } || pages.contains(path) || prefixes.contains { path.hasPrefix($0) }
    }
}
