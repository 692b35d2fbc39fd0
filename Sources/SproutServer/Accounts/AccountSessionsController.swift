import Foundation
import Hummingbird
import SproutWire

/// Sprout's routes for the signed-in account's own sessions (beyond Strapi, which has none):
/// - `GET /users/me/sessions`: the web sessions, with browser, address and last use;
/// - `DELETE /users/me/sessions/{id}`: ends one;
/// - `DELETE /users/me/sessions`: "sign out everywhere": every other web session ends and every token issued
///   before now is refused on every server process at its next request; the caller's own credential stays.
struct AccountSessionsController<Context: CallerRequestContext> {
    typealias SignedIn = SignedInContext<Context, StrapiError>

    let accounts: SQLAccountRepository
    let sessions: WebSessions

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        let signedIn = routes.group(context: SignedIn.self)
        signedIn.get("users/me/sessions", use: list)
        signedIn.delete("users/me/sessions", use: endAllOthers)
        signedIn.delete("users/me/sessions/{id}", use: end)
        return routes
    }

    @Sendable func list(_ request: Request, context: SignedIn) async throws -> Response {
        let current: String? = if case .sessionCookie(let token, _) = context.credential { WebSessions.hash(token) } else { nil }
        let list = try await sessions.list(accountID: context.account.id).map { session in
            AccountSessionJSON(
                id: session.publicID, device: session.device, ipAddress: session.address,
                createdAt: StrapiTimestamp.string(from: session.createdAt),
                lastSeenAt: session.lastSeenAt.map(StrapiTimestamp.string(from:)),
                expiresAt: StrapiTimestamp.string(from: session.expiresAt), current: session.tokenHash == current
            )
        }
        return try Response.json(list)
    }

    @Sendable func end(_ request: Request, context: SignedIn) async throws -> Response {
        let id = try context.parameters.require("id")
        guard try await sessions.end(publicID: id, accountID: context.account.id) else { throw StrapiError.notFound }
        return try Response.json(StrapiOKJSON())
    }

    @Sendable func endAllOthers(_ request: Request, context: SignedIn) async throws -> Response {
        guard try await accounts.revokeCredentials(id: context.account.id, keeping: KeptCredential(context.credential)) != nil else {
            throw StrapiError.invalidToken
        }
        return try Response.json(StrapiOKJSON())
    }
}
