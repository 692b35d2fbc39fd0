import Foundation
import Hummingbird

/// In front of every console route (`/admin…`): the caller must be signed in by the web session cookie (a Bearer
/// token does not open the console: it cannot carry the console's form token nor be timed out by idleness), not
/// blocked, and of a role that may use this part (`required`: moderators see the overview, only admins the
/// accounts and the audit log). Anyone else gets the site's ordinary 404 page, so the console's addresses tell
/// them nothing; unknown `/admin/…` addresses are 404 for everyone anyway.
///
/// The idle timeout: `WebSessions` reads a session's `last_seen_at` as it finds the session, before it moves it to
/// now, and the authenticator keeps that earlier value in the credential (`Caller.Credential.sessionCookie`). So
/// the gate sees when the browser was last seen before this request; more than `idleLimit` ago (anywhere on the
/// site: `last_seen_at` moves on every page and API call, a minute at a time), the session is ended (the row
/// deleted, the cookie cleared) and the browser goes to the log-in page, coming back here afterwards. Only staff
/// are timed out, and only after the role check, so a user's session never ends because they typed `/admin`.
struct AdminGate<Context: CallerRequestContext>: RouterMiddleware {
    let required: AccountRole
    let sessions: WebSessions
    let cookie: SessionCookie

    static var idleLimit: TimeInterval { 30 * 60 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard case .account(let account, .sessionCookie(let token, let lastSeenAt)) = context.caller,
            !account.isBlocked, account.role.mayModerate
        else { throw HTTPError(.notFound) }
        if Self.isIdle(lastSeenAt: lastSeenAt, now: sessions.clock.now) {
            try await sessions.end(token: token)
            // A form sent after the timeout is not replayed after logging in: back to the page it came from.
            let back = request.method == .get || request.method == .head ? request.pageAddress : "/admin"
            var response = Response.seeOther("/account/login?next=" + LocalAddress.encoded(back))
            response.headers[.setCookie] = cookie.clearing(overHTTPS: context.client.isHTTPS)
            return response
        }
        guard required != .admin || account.role.mayAdminister else { throw HTTPError(.notFound) }
        return try await next(request, context)
    }

    /// A session never seen (from before `last_seen_at` existed) counts as idle: the console asks for a log-in.
    static func isIdle(lastSeenAt: Date?, now: Date) -> Bool {
        guard let lastSeenAt else { return true }
        return now.timeIntervalSince(lastSeenAt) > idleLimit
    }
}

extension Caller {
    /// The session token of a caller signed in by the web session cookie; nil for anyone else.
    var sessionToken: String? {
        if case .account(_, .sessionCookie(let token, _)) = self { return token }
        return nil
    }
}
