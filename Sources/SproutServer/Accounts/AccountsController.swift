import Foundation
import Hummingbird
import SproutWire

/// Strapi's users-permissions routes: `/auth/local/register`, `/auth/local`, `/users/me`, and the SeSAC server's
/// `/custom/change-password`.
struct AccountsController<Context: CallerRequestContext> {
    /// The context of the routes about the caller's own account.
    typealias SignedIn = SignedInContext<Context, StrapiError>

    let service: AccountsService
    let activity: any AccountActivity
    let maxBodySize: Int

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        routes.post("auth/local/register", use: register)
        routes.post("auth/local", use: logIn)
        let signedIn = routes.group(context: SignedIn.self)
        signedIn.post("custom/change-password", use: changePassword)
        signedIn.get("users/me", use: me)
        return routes
    }

    @Sendable func register(_ request: Request, context: Context) async throws -> Response {
        let input = try AccountInput.registration(from: try await request.strapiBodyFields(limit: maxBodySize))
        let account = try await service.register(input, address: context.client.address)
        if !account.confirmed {
            // Strapi's answer while confirmation is required: the user, and no token until the mail's link is used.
            return try Response.json(StrapiPendingUserJSON(user: StrapiUserJSON(account, activity: AccountActivitySummary())))
        }
        let token = try await service.tokens.issue(for: account)
        return try Response.json(StrapiAuthJSON(jwt: token, user: StrapiUserJSON(account, activity: AccountActivitySummary())))
    }

    @Sendable func logIn(_ request: Request, context: Context) async throws -> Response {
        let input = try AccountInput.login(from: try await request.strapiBodyFields(limit: maxBodySize))
        let account = try await service.logIn(input, address: context.client.address)
        let token = try await service.tokens.issue(for: account)
        let user = StrapiUserJSON(account, activity: try await activity.activity(ofAccount: account.id))
        return try Response.json(StrapiAuthJSON(jwt: token, user: user))
    }

    @Sendable func changePassword(_ request: Request, context: SignedIn) async throws -> Response {
        let input = try AccountInput.passwordChange(from: try await request.strapiBodyFields(limit: maxBodySize))
        let updated = try await service.changePassword(of: context.account, calling: context.credential, input, address: context.client.address)
        return try Response.json(StrapiUserJSON(updated, activity: try await activity.activity(ofAccount: updated.id)))
    }

    @Sendable func me(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        return try Response.json(StrapiUserJSON(account, activity: try await activity.activity(ofAccount: account.id)))
    }
}
