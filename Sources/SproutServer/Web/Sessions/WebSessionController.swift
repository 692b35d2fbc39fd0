import Foundation
import HTTPTypes
import Hummingbird

/// The browser's sign-in routes, JSON in and out, under `/web` (they are the web app's, not part of the Strapi
/// API the iOS apps use):
/// - `POST /web/session` logs in (`identifier`, `password`) and sets the session cookie;
/// - `DELETE /web/session` logs out: the session ends on the server and the cookie is cleared;
/// - `GET /web/session` says who the cookie belongs to (`{"user": null}` when nobody);
/// - `POST /web/account` signs up (`username`, `email`, `password`) and signs in at once.
/// The rules, the login limiter and the error bodies are `AccountsService`'s, exactly as on `/auth/local`.
/// Password changes use the API's `/custom/change-password`, which accepts the cookie.
struct WebSessionController<Context: CallerRequestContext> {
    let service: AccountsService
    let sessions: WebSessions
    let cookie: SessionCookie
    let crossSite: CrossSiteRequestGuard<Context>
    let maxBodySize: Int

    init(accounts: AccountsParts, publicURL: String, maxBodySize: Int) {
        service = accounts.service
        sessions = accounts.sessions
        cookie = SessionCookie(publicURL: publicURL)
        crossSite = CrossSiteRequestGuard(publicURL: publicURL)
        self.maxBodySize = maxBodySize
    }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        routes.get("web/session", use: current)
        routes.post("web/session", use: logIn)
        routes.delete("web/session", use: logOut)
        routes.post("web/account", use: signUp)
        return routes
    }

    /// The signed-in user as the web app needs it: no token, no activity lists.
    struct SessionUser: Encodable {
        let id: Int
        let username: String
        let email: String

        init(_ account: Account) {
            id = account.id
            username = account.username
            email = account.email
        }
    }

    struct SessionBody: Encodable {
        let user: SessionUser?

        private enum CodingKeys: String, CodingKey { case user }

        /// `{"user": null}` for nobody, as documented: synthesized encoding would leave the key out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(user, forKey: .user)
        }
    }

    @Sendable func current(_ request: Request, context: Context) async throws -> Response {
        try Response.json(SessionBody(user: context.caller.account.map(SessionUser.init)))
    }

    @Sendable func logIn(_ request: Request, context: Context) async throws -> Response {
        try refuseOtherSites(request)
        let input = try AccountInput.login(from: try await request.strapiBodyFields(limit: maxBodySize))
        let account: Account
        do {
            account = try await service.logIn(input, address: context.client.address)
        } catch let refusal as StrapiError where BlockedLogIn.isBlocked(refusal) {
            // The password was right (it is checked before the block), so the reason may be told.
            let blocked = input.isEmail ? try await service.accounts.find(email: input.identifier) : try await service.accounts.find(username: input.identifier)
            throw BlockedLogIn(refusal: refusal, reason: blocked?.blockedReason)
        }
        return try await signIn(account, replacing: request, context: context)
    }

    @Sendable func signUp(_ request: Request, context: Context) async throws -> Response {
        try refuseOtherSites(request)
        let input = try AccountInput.registration(from: try await request.strapiBodyFields(limit: maxBodySize))
        let account = try await service.register(input, address: context.client.address)
        return try await signIn(account, replacing: request, context: context)
    }

    /// Always answers 200 and clears the cookie, even when the session had already ended: logging out twice
    /// (two tabs) is not an error.
    @Sendable func logOut(_ request: Request, context: Context) async throws -> Response {
        if let token = request.cookieValue(named: WebSessions.cookieName) {
            try await sessions.end(token: token)
        }
        var response = try Response.json(SessionBody(user: nil))
        response.headers[.setCookie] = cookie.clearing(overHTTPS: context.client.isHTTPS)
        return response
    }

    /// Starts a new session; a session the browser still had is ended first, so one browser holds one session.
    private func signIn(_ account: Account, replacing request: Request, context: Context) async throws -> Response {
        if let old = request.cookieValue(named: WebSessions.cookieName) {
            try await sessions.end(token: old)
        }
        let token = try await sessions.start(
            accountID: account.id, device: request.headers[.userAgent], address: context.client.address
        )
        var response = try Response.json(SessionBody(user: SessionUser(account)))
        response.headers[.setCookie] = cookie.setting(token, overHTTPS: context.client.isHTTPS)
        return response
    }

    /// Login CSRF: the global guard checks only requests that already carry a session cookie, but another site
    /// could also sign a visitor in to the attacker's account and watch what they write. Browsers send `Origin`
    /// on these POSTs, and `Sec-Fetch-Site`: one naming another site is refused, and so is `Origin: null` (a
    /// sandboxed frame or a `data:` page, which can post without any `Referer`). A client with none of these
    /// headers is no browser and cannot be used that way.
    private func refuseOtherSites(_ request: Request) throws {
        let refusal = StrapiError(status: .forbidden, message: "Cross-site request refused: sign in on a page of this site.")
        if request.headers[.origin]?.trimmingWhitespace.lowercased() == "null" { throw refusal }
        if let site = request.headers[Self.secFetchSite]?.lowercased(), site != "same-origin", site != "none" { throw refusal }
        guard let claimed = CrossSiteRequestGuard<Context>.claimedOrigin(of: request) else { return }
        guard crossSite.isOwn(claimed, request: request) else { throw refusal }
    }

    static var secFetchSite: HTTPField.Name { HTTPField.Name("Sec-Fetch-Site")! }
}
