import Foundation
import Hummingbird
import Logging
import SproutWire

/// The signed-in account's own settings, beyond Strapi's routes (which leave them to an administrator):
/// - `PUT /users/me` `{username?, email?}`: a new username at once; a new email address only once the
///   confirmation mailed to it is used (until then the old one stays);
/// - `DELETE /users/me` `{password}`: deletes the account and everything it holds in the five apps, with its
///   image files; every token and session of it stops working;
/// - `GET /users/me/export`: everything it holds, as one tar archive (`AccountExport`), streamed.
struct AccountProfileController<Context: CallerRequestContext> {
    typealias SignedIn = SignedInContext<Context, StrapiError>

    let service: AccountsService
    let activity: any AccountActivity
    /// The market's images, whose files go with the account.
    let images: any MarketImageStorage
    let maxBodySize: Int
    let logger: Logger
    let export: AccountExport
    let ledger: RateLimitLedger
    /// One export of an account at a time, four in the whole process, none held longer than ten minutes.
    let exportSlots = LargeListSlots(.init(perAccount: 1, inAll: 4, longestHold: .seconds(600)))
    /// Exports one account may start in an hour.
    static var exportsPerHour: Int { 10 }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        let signedIn = routes.group(context: SignedIn.self)
        signedIn.put("users/me", use: update)
        signedIn.delete("users/me", use: delete)
        signedIn.get("users/me/export", use: exportArchive)
        return routes
    }

    /// The account as it now is, and where a confirmation went if the email is to change.
    struct ProfileAnswer: Encodable {
        let user: StrapiUserJSON
        let emailConfirmationSentTo: String?

        private enum CodingKeys: String, CodingKey { case user, emailConfirmationSentTo }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(user, forKey: .user)
            try container.encode(emailConfirmationSentTo, forKey: .emailConfirmationSentTo)
        }
    }

    @Sendable func update(_ request: Request, context: SignedIn) async throws -> Response {
        let change = try AccountInput.profileChange(from: try await request.strapiBodyFields(limit: maxBodySize))
        var account = context.account
        if let username = change.username, username != account.username {
            guard let renamed = try await service.accounts.changeUsername(id: account.id, to: username, at: service.clock.now.truncatedToMilliseconds) else {
                throw StrapiError.usernameTaken
            }
            account = renamed
        }
        var sentTo: String?
        if let email = change.email, email != account.email {
            if try await service.accounts.find(email: email) != nil { throw StrapiError.emailTaken }
            try await service.recovery.sendConfirmation(to: account, address: email)
            sentTo = email
        }
        let user = StrapiUserJSON(account, activity: try await activity.activity(ofAccount: account.id))
        return try Response.json(ProfileAnswer(user: user, emailConfirmationSentTo: sentTo))
    }

    @Sendable func delete(_ request: Request, context: SignedIn) async throws -> Response {
        let fields = try await request.strapiBodyFields(limit: maxBodySize)
        guard let password = fields["password"]?.asText, !password.isEmpty else { throw StrapiError.passwordMissing }
        let account = context.account
        try await service.confirmPassword(password, of: account, address: context.client.address)
        guard try await AccountDeletion(accounts: service.accounts, images: images, logger: logger).delete(account) else {
            throw StrapiError.invalidToken
        }
        logger.notice("account deleted by its owner", metadata: ["account": "\(account.id)"])
        return try Response.json(StrapiOKJSON())
    }

    @Sendable func exportArchive(_ request: Request, context: SignedIn) async throws -> Response {
        let account = context.account
        guard let slot = exportSlots.claim(accountID: account.id) else {
            throw StrapiError(status: .tooManyRequests, message: "An export of this account is already being made: wait for it to finish.")
        }
        guard try await ledger.claim("export:\(account.id)", limit: Self.exportsPerHour, window: 3600, at: export.clock.now) else {
            throw StrapiError(status: .tooManyRequests, message: "Too many exports in the last hour: try again later.")
        }
        let export = export
        let body = ResponseBody { writer in
            // The slot is held until the archive is written (or the client goes away).
            defer { withExtendedLifetime(slot) {} }
            try await export.write(account, to: &writer)
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [
            .contentType: "application/x-tar",
            .contentDisposition: "attachment; filename=\"\(AccountExport.fileName(for: account, at: export.clock.now))\"",
        ], body: body)
    }
}
