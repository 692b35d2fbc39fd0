import Foundation
import Hummingbird

/// Who is calling: resolved once per request by `CallerMiddleware` and kept on the request context, then answered
/// in each service's own shape (Laravel 401, Strapi 403/401, …).
enum Caller: Sendable {
    /// No credentials at all.
    case anonymous
    /// A valid Bearer token (of the account's current token generation, or the one kept by a password change) or
    /// browser session of an account that is not blocked.
    case account(Account, Credential)
    /// `BOARD_API_TOKEN`, the static Bearer token the Mail Plug app hard-coded: it reads every board and owns
    /// nothing. Only the Board accepts it; every other service answers it as it answers `.rejected`.
    case boardAPIToken
    /// Credentials were given and are wrong: malformed, expired, signed with another key, of a deleted or blocked
    /// account.
    case rejected

    enum Credential: Sendable, Equatable {
        /// A Bearer token, by its id (`AccountTokenClaims.tokenID`).
        case bearerToken(id: String)
        /// The web app's session cookie, by its token (hashed only when a password change needs to keep it), with
        /// when the session was last seen before this request (the console's idle timeout reads it: the lookup
        /// that found the session has already moved it to now).
        case sessionCookie(token: String, lastSeenAt: Date?)
    }

    var account: Account? {
        if case .account(let account, _) = self { return account }
        return nil
    }
}

/// A request context that carries the caller `CallerMiddleware` resolved (`.anonymous` on routes it does not cover).
protocol CallerRequestContext: RecordedRequestContext {
    var caller: Caller { get set }
}

/// Resolves the caller once per request, before any route runs; routes read `context.caller`.
struct CallerMiddleware<Context: CallerRequestContext>: RouterMiddleware {
    let authenticator: AccountAuthenticator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.caller = try await authenticator.caller(of: request)
        if let account = context.caller.account { context.record.accountID = account.id }
        return try await next(request, context)
    }
}
