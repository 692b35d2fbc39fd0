import Foundation

/// A Sprout account: the SeSAC community's users-permissions user, shared by every app.
struct Account: Sendable, Equatable {
    let id: Int
    let username: String
    /// Lowercased, as Strapi stores it: emails are unique whatever their case.
    let email: String
    let passwordHash: String
    /// Strapi's `blocked`: null until an administrator decides. A blocked account cannot log in or use a token.
    let blocked: Bool?
    let createdAt: Date
    let updatedAt: Date
    /// Moves on every revocation (a password change, an administrator's reset, block or unblock): tokens of an
    /// older generation are refused.
    var tokenGeneration: Int = 0
    /// The one token of an older generation still accepted: the one whose holder changed the password.
    var keptTokenID: String? = nil
    /// Strapi's `confirmed`: whether the email address was confirmed by mail. Accounts made while confirmation is
    /// not required are confirmed from the start, as Strapi marks them.
    var confirmed: Bool = true
    /// What the account may do beyond its own data (the console).
    var role: AccountRole = .user
    /// Why an administrator blocked it, shown at its next login.
    var blockedReason: String? = nil
    /// The last successful login (API or browser).
    var lastLoginAt: Date? = nil

    var isBlocked: Bool { blocked == true }

    /// Whether a token with these claims is still this account's: of the current generation, or the one kept.
    func accepts(_ claims: AccountTokenClaims) -> Bool {
        claims.generation >= tokenGeneration || claims.tokenID == keptTokenID
    }
}
