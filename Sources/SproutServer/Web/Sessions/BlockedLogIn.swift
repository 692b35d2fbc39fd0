import Foundation
import Hummingbird
import SproutWire

/// The web log-in's answer for a blocked account: Strapi's `Auth.form.error.blocked` body, as `/auth/local` sends
/// it, plus `reason`, the block's reason (`accounts.blocked_reason`) when the administrator gave one. Only the web's
/// `/web/session` adds it: `/auth/local`'s body is the iOS apps' contract and stays as it was. The reason is told
/// only to someone who gave the right password (`AccountsService.logIn` checks the password before the block).
struct BlockedLogIn: HTTPResponseError {
    let refusal: StrapiError
    let reason: String?

    var status: HTTPResponse.Status { refusal.status }

    /// Whether `error` is the refusal of a blocked account.
    static func isBlocked(_ error: StrapiError) -> Bool {
        error.body.formMessageID == StrapiError.blocked.body.formMessageID
    }

    private struct Body: Encodable {
        let refusal: StrapiErrorJSON
        let reason: String?

        private enum CodingKeys: String, CodingKey { case reason }

        func encode(to encoder: any Encoder) throws {
            try refusal.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(reason, forKey: .reason)
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try Response.json(Body(refusal: refusal.body, reason: reason), status: status)
    }
}
