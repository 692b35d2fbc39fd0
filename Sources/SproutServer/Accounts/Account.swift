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

    var isBlocked: Bool { blocked == true }
}
