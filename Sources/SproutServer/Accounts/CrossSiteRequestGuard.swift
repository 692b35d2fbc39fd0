import Foundation
import HTTPTypes
import Hummingbird

/// CSRF protection for everything a session cookie authenticates, API routes included. SameSite=Lax keeps the
/// cookie off cross-site POSTs from other sites, but not from sibling subdomains; and since bodies are read by
/// content, a cross-site `text/plain` form can carry JSON, so "JSON only" is no defence here. So a state-changing
/// request that carries the session cookie (and no Bearer token) must come from this origin: its `Origin` (or,
/// failing that, `Referer`) must name this server, as the request's `Host` or `PUBLIC_URL` gives it.
struct CrossSiteRequestGuard<Context: RequestContext>: RouterMiddleware {
    let publicOrigin: String?

    init(publicURL: String) {
        publicOrigin = Self.origin(of: publicURL)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Runs on every request: methods that change nothing pass straight on, without building a set each time.
        if request.method == .get || request.method == .head || request.method == .options {
            return try await next(request, context)
        }
        // The same test of "a token was sent" as the authenticator's: an empty Authorization header is no token,
        // so the cookie authenticates and must be checked here.
        guard request.authorizationCredential == nil,
            request.cookieValue(named: WebSessions.cookieName) != nil
        else { return try await next(request, context) }
        guard let claimed = Self.claimedOrigin(of: request), isOwn(claimed, request: request) else {
            return try Response.json(MessageBody(message: "Cross-site request refused: sign-in cookies work only on pages of this site."), status: .forbidden)
        }
        return try await next(request, context)
    }

    /// The origin a request says it comes from: its `Origin`, or failing that its `Referer`; nil when neither
    /// names one (`Origin: null` names none).
    static func claimedOrigin(of request: Request) -> String? {
        request.headers[.origin].flatMap { $0 == "null" ? nil : Self.origin(of: $0) }
            ?? request.headers[.referer].flatMap(Self.origin(of:))
    }

    func isOwn(_ origin: String, request: Request) -> Bool {
        if origin == publicOrigin { return true }
        guard let host = request.head.authority?.lowercased() else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// `scheme://host[:port]`, lowercased, the default port left out as browsers write an `Origin`.
    static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }
}
