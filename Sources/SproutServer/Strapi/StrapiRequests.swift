import Hummingbird
import NIOCore

extension AccountAuthenticator {
    /// The calling account, for a Strapi route that needs one: no credentials → 403 `Forbidden` (the Public role
    /// may not), wrong credentials → 401 `Invalid token.`
    func strapiAccount(of request: Request) async throws -> Account {
        try await strapiCredential(of: request).account
    }

    /// The calling account and the credential it called with, refused as `strapiAccount` refuses.
    func strapiCredential(of request: Request) async throws -> (account: Account, credential: Caller.Credential) {
        switch try await caller(of: request) {
        case .account(let account, let credential): return (account, credential)
        case .anonymous: throw StrapiError.forbidden
        case .rejected: throw StrapiError.invalidToken
        }
    }
}

extension Request {
    /// The body's fields, with unreadable bodies answered in Strapi's shape.
    func strapiBodyFields(limit: Int) async throws -> FormFields {
        try await bodyFields(limit: limit, refusal: StrapiError.unreadableBody)
    }
}
