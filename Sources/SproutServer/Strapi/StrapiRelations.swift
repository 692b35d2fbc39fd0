import Foundation

// Strapi v3 nests relations one level deep: a post's comments, a comment's post and an account's posts and
// comments (`/users/me`, the login answer) are these shallow rows. Kept here, beside Strapi's other shapes, so
// Accounts and Community both use them without depending on each other.

/// A post one relation deep: its author as an id.
struct ShallowPost: Sendable, Equatable {
    let id: Int
    let text: String
    let authorID: Int
    let createdAt: Date
    let updatedAt: Date
}

/// A comment one relation deep: its author and post as ids.
struct ShallowComment: Sendable, Equatable {
    let id: Int
    let text: String
    let authorID: Int
    let postID: Int
    let createdAt: Date
    let updatedAt: Date
}
