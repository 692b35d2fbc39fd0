import Crypto
import Foundation
import Hummingbird

/// Every board call needs a Bearer token: an account's JWT, or the static API token of `BOARD_API_TOKEN` (which
/// the original handed to every app and which apps hard-code). The web app's session cookie counts as the account.
struct BoardAuthenticator: Sendable {
    let accounts: any CallerResolving
    /// SHA-256 of the static token, so the comparison takes the same time whatever the guess.
    private let staticTokenDigest: SHA256.Digest?

    init(accounts: any CallerResolving, staticToken: String?) {
        self.accounts = accounts
        staticTokenDigest = staticToken.flatMap { $0.isEmpty ? nil : SHA256.hash(data: Data($0.utf8)) }
    }

    func caller(of request: Request) async throws -> BoardCaller {
        if let staticTokenDigest, let header = request.headers[.authorization]?.trimmingWhitespace,
           let bearer = AccountAuthenticator.bearerToken(in: header), SHA256.hash(data: Data(bearer.utf8)) == staticTokenDigest {
            return .staticToken
        }
        guard case .account(let account, _) = try await accounts.caller(of: request) else { throw BoardError.unauthorized }
        return .account(account)
    }
}
