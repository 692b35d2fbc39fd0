import Hummingbird
import NIOCore

extension StrapiError: SignInRefusal {
    /// Strapi's users-permissions answers: no credentials is 403 `Forbidden`, a bad token 401 `Invalid token.`
    static func refusal(for caller: Caller) -> any Error {
        if case .anonymous = caller { return StrapiError.forbidden }
        return StrapiError.invalidToken
    }
}

extension Request {
    /// The body's fields, with unreadable bodies answered in Strapi's shape.
    func strapiBodyFields(limit: Int) async throws -> FormFields {
        try await bodyFields(limit: limit, refusal: StrapiError.unreadableBody)
    }
}
