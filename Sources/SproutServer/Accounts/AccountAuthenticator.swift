import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The one authenticator, asked once per request by `CallerMiddleware`. A Bearer token (the scheme in any case, as
/// one SeSAC client sends `bearer`) wins over the web app's session cookie; an empty `Authorization` header counts
/// as none.
struct AccountAuthenticator: Sendable {
    let accounts: SQLAccountRepository
    let tokens: AccountTokens
    let sessions: WebSessions
    /// SHA-256 of `BOARD_API_TOKEN`, so the comparison takes the same time whatever the guess.
    private let boardAPITokenDigest: SHA256.Digest?

    init(accounts: SQLAccountRepository, tokens: AccountTokens, sessions: WebSessions, boardAPIToken: String?) {
        self.accounts = accounts
        self.tokens = tokens
        self.sessions = sessions
        boardAPITokenDigest = boardAPIToken.flatMap { $0.isEmpty ? nil : SHA256.hash(data: Data($0.utf8)) }
    }

    func caller(of request: Request) async throws -> Caller {
        if let header = request.authorizationCredential {
            let token = Self.bearerToken(in: header)
            if let token, let boardAPITokenDigest, SHA256.hash(data: Data(token.utf8)) == boardAPITokenDigest { return .boardAPIToken }
            guard let token, let claims = try await tokens.claims(of: token),
                let account = try await accounts.find(id: claims.accountID), !account.isBlocked, account.accepts(claims)
            else { return .rejected }
            return .account(account, .bearerToken(id: claims.tokenID))
        }
        if let token = request.cookieValue(named: WebSessions.cookieName) {
            // A stale cookie is no credential: the browser simply is not signed in any more.
            guard let session = try await sessions.session(forToken: token), !session.account.isBlocked else { return .anonymous }
            return .account(session.account, .sessionCookie(token: token, lastSeenAt: session.lastSeenAt))
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
