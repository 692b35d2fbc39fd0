import Foundation

/// A post's or comment's author: an account without its secrets.
struct Author: Sendable, Equatable {
    let id: Int
    let username: String
    let email: String
    let blocked: Bool?
    let createdAt: Date
    let updatedAt: Date
}

/// A post with its author and its comments (shallow), as every post answer shows it.
struct Post: Sendable, Equatable {
    let id: Int
    let text: String
    let author: Author
    let createdAt: Date
    let updatedAt: Date
    var comments: [ShallowComment]
    /// When a moderator hid it: then only its author sees it (marked).
    var hiddenAt: Date? = nil

    var shallow: ShallowPost { ShallowPost(id: id, text: text, authorID: author.id, createdAt: createdAt, updatedAt: updatedAt) }
}

/// A comment with its author and its post (shallow).
struct Comment: Sendable, Equatable {
    let id: Int
    let text: String
    let author: Author
    let post: ShallowPost
    let createdAt: Date
    let updatedAt: Date
    /// When a moderator hid it: then only its author sees it (marked).
    var hiddenAt: Date? = nil
}
