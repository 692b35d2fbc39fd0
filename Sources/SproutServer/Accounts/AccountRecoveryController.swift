import Foundation
import HTTPTypes
import Hummingbird
import SproutWire

/// Strapi v3's users-permissions routes for a forgotten password and email confirmation:
/// `POST /auth/forgot-password`, `POST /auth/reset-password`, `POST /auth/send-email-confirmation`,
/// `GET /auth/email-confirmation`. Form or JSON bodies, Strapi's error bodies.
struct AccountRecoveryController<Context: CallerRequestContext> {
    let recovery: AccountRecovery
    let tokens: AccountTokens
    let activity: any AccountActivity
    /// `EMAIL_CONFIRMATION_REDIRECT`.
    let confirmationRedirect: String
    let maxBodySize: Int

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        routes.post("auth/forgot-password", use: forgotPassword)
        routes.post("auth/reset-password", use: resetPassword)
        routes.post("auth/send-email-confirmation", use: sendEmailConfirmation)
        routes.get("auth/email-confirmation", use: confirmEmail)
        return routes
    }

    @Sendable func forgotPassword(_ request: Request, context: Context) async throws -> Response {
        let fields = try await request.strapiBodyFields(limit: maxBodySize)
        try await recovery.requestPasswordReset(email: fields["email"]?.asText ?? "", client: context.client.address)
        return try Response.json(StrapiOKJSON())
    }

    /// Strapi's order: both passwords and a code, or the params error; different passwords, the matching error;
    /// then the code; then the password rules.
    @Sendable func resetPassword(_ request: Request, context: Context) async throws -> Response {
        let fields = try await request.strapiBodyFields(limit: maxBodySize)
        guard let password = fields["password"]?.asText, !password.isEmpty,
            let confirmation = fields["passwordConfirmation"]?.asText, !confirmation.isEmpty
        else { throw StrapiError.paramsMissing }
        guard password == confirmation else { throw StrapiError.passwordsDiffer }
        guard let code = fields["code"]?.asText, !code.isEmpty else { throw StrapiError.paramsMissing }
        try AccountInput.checkPassword(password)
        let account = try await recovery.resetPassword(code: code, password: password)
        let token = try await tokens.issue(for: account)
        let user = StrapiUserJSON(account, activity: try await activity.activity(ofAccount: account.id))
        return try Response.json(StrapiAuthJSON(jwt: token, user: user))
    }

    @Sendable func sendEmailConfirmation(_ request: Request, context: Context) async throws -> Response {
        let fields = try await request.strapiBodyFields(limit: maxBodySize)
        let email = try await recovery.requestEmailConfirmation(email: fields["email"]?.asText ?? "", client: context.client.address)
        return try Response.json(StrapiEmailSentJSON(email: email))
    }

    /// The link in the confirmation mail: confirms, then sends the browser on (Strapi's redirect), or Strapi's
    /// 400 `token.invalid` for a code that is unknown, used or expired.
    @Sendable func confirmEmail(_ request: Request, context: Context) async throws -> Response {
        guard let code = request.queryFields["confirmation"]?.asText, !code.isEmpty,
            try await recovery.confirmEmail(code: code)
        else { throw StrapiError.badRequest("token.invalid") }
        return Response(status: .found, headers: [.location: confirmationRedirect, .cacheControl: "no-store"])
    }
}
