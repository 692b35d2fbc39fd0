import Foundation
import HTTPTypes
import Hummingbird

/// Who is calling: resolved once per request by `AccountAuthenticator`, then answered in each service's own
/// shape (Laravel 401, Strapi 403/401, …).
enum Caller: Sendable {
    /// No credentials at all.
    case anonymous
    /// A valid Bearer token (of the account's current token generation, or the one kept by a password change) or
    /// browser session of an account that is not blocked.
    case account(Account, Credential)
    /// Credentials were given and are wrong: malformed, expired, signed with another key, of a deleted or blocked
    /// account.
    case rejected

    enum Credential: Sendable, Equatable {
        /// A Bearer token, by its id (`AccountTokenClaims.tokenID`).
        case bearerToken(id: String)
        /// The web app's session cookie, by its token (hashed only when a password change needs to keep it).
        case sessionCookie(token: String)
    }

    var account: Account? {
        if case .account(let account, _) = self { return account }
        return nil
    }
}

/// Resolves a request to its caller. `AccountAuthenticator` is the real one; a service takes this protocol so a
/// test can stand in a fixed caller.
protocol CallerResolving: Sendable {
    func caller(of request: Request) async throws -> Caller
}

/// The one authenticator every service asks. A Bearer token (the scheme in any case, as one SeSAC client sends
/// `bearer`) wins over the web app's session cookie; an empty `Authorization` header counts as none.
struct AccountAuthenticator: CallerResolving {
    let accounts: SQLAccountRepository
    let tokens: AccountTokens
    let sessions: WebSessions

    func caller(of request: Request) async throws -> Caller {
        if let header = request.authorizationCredential {
            guard let token = Self.bearerToken(in: header), let claims = try await tokens.claims(of: token),
                let account = try await accounts.find(id: claims.accountID), !account.isBlocked, account.accepts(claims)
            else { return .rejected }
            return .account(account, .bearerToken(id: claims.tokenID))
        }
        if let token = request.cookieValue(named: WebSessions.cookieName) {
            // A stale cookie is no credential: the browser simply is not signed in any more.
            guard let account = try await sessions.account(forToken: token), !account.isBlocked else { return .anonymous }
            return .account(account, .sessionCookie(token: token))
        }
        return .anonymous
    }

    /// `Bearer <token>`, the scheme matched case-insensitively; nil for any other form.
    static func bearerToken(in header: String) -> String? {
        let parts = header.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }
}

extension Request {
    /// The `Authorization` header when it holds anything but spaces: the one test of "was a token sent" that the
    /// authenticator and the cross-site guard share, so an empty header cannot make them disagree.
    var authorizationCredential: String? {
        guard let header = headers[.authorization]?.trimmingWhitespace, !header.isEmpty else { return nil }
        return header
    }

    /// The value of cookie `name` from the `Cookie` header(s), if present and non-empty.
    func cookieValue(named name: String) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop(while: { $0 == " " })
                guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
                let value = trimmed[trimmed.index(after: equals)...]
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }
}
