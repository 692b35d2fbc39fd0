import Foundation
import Hummingbird

/// The Diary's editor below `/diary` (the list is the app page `WebController` serves): `/diary/new` (a blank entry;
/// the script makes its UUID) and `/diary/{id}` (an entry, by its UUID). One screen for writing and editing, as in
/// the app: the first line is the title. `diary.js` talks to `/api/diary/entries…` and `/api/weather` with the
/// session cookie. Every diary page needs an account, as the API does: signed-out visitors see the log-in prompt.
struct DiaryPages<Context: CallerRequestContext> {
    let renderer: WebPageRenderer

    static var app: WebApp { WebApp.all.first { $0.slug == "diary" }! }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        // One route: `new` or a UUID (a trie router need not prefer the constant over the parameter).
        routes.get("diary/{id}", use: entryPage)
        return routes
    }

    private struct EntryContext {
        /// For the log-in prompt.
        let app = DiaryPages.app
        /// The entry's id in lowercase, as the API answers it; nil for a new entry.
        let entryID: String?
        let visitor: WebVisitor?
        let logInPath: String
    }

    @Sendable func entryPage(_ request: Request, context: Context) async throws -> Response {
        guard let raw = context.parameters.get("id") else { throw HTTPError(.notFound) }
        let entryID: String?
        if raw == "new" {
            entryID = nil
        } else if let uuid = UUID(uuidString: raw) {
            entryID = uuid.uuidString.lowercased()
        } else {
            throw HTTPError(.notFound)
        }
        let visitor = renderer.visitor(of: context)
        let page = EntryContext(entryID: entryID, visitor: visitor, logInPath: request.logInPath)
        return try renderer.render(
            "diary-entry", context: page, title: entryID == nil ? "새 일기" : "일기", current: Self.app,
            scripts: visitor == nil ? [] : ["diary.js"], visitor: visitor, request: request
        )
    }
}
