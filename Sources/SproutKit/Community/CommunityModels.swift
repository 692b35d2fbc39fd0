import Foundation
import SproutWire

/// A community account: the signed-in user, or the author of a post or comment.
public struct CommunityUser: Sendable, Hashable, Identifiable {
    /// The account's id; posts and comments name their author by it.
    public var id: Int
    /// The name shown beside posts and comments.
    public var username: String
    /// The account's email, lowercased by the server.
    public var email: String
    /// Whether the account is confirmed (always true on Sprout: accounts need no email confirmation).
    public var confirmed: Bool
    /// Whether an administrator blocked the account (the server's `null` reads as false).
    public var blocked: Bool
    /// When the account was created (milliseconds).
    public var createdAt: Date
    /// When the account last changed (a password change moves it).
    public var updatedAt: Date

    /// A user with the given values.
    public init(id: Int, username: String, email: String, confirmed: Bool = true, blocked: Bool = false, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.username = username
        self.email = email
        self.confirmed = confirmed
        self.blocked = blocked
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A post on the community board, with its author and (shallow) comments.
public struct Post: Sendable, Hashable, Identifiable {
    /// The server's id.
    public var id: Int
    /// The post's text.
    public var text: String
    /// Who wrote it; owner checks compare `author.id` with the signed-in user's id.
    public var author: CommunityUser
    /// When it was written (milliseconds).
    public var createdAt: Date
    /// When its text last changed; the original app shows this date.
    public var updatedAt: Date
    /// Its comments as the post carries them (oldest first): ids and text only, no author names.
    public var comments: [CommentSummary]
    /// A moderator hid it (Sprout's `hidden`): only its author still gets it, and should see it marked.
    public var isHidden: Bool

    /// A post with the given values.
    public init(
        id: Int, text: String, author: CommunityUser, createdAt: Date, updatedAt: Date, comments: [CommentSummary] = [], isHidden: Bool = false
    ) {
        self.id = id
        self.text = text
        self.author = author
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.comments = comments
        self.isHidden = isHidden
    }

    /// The "댓글 N개" number.
    public var commentCount: Int { comments.count }
}

/// A comment as a post carries it: its author and post as ids only.
public struct CommentSummary: Sendable, Hashable, Identifiable {
    /// The server's id.
    public var id: Int
    /// The comment's text.
    public var text: String
    /// The author's id.
    public var authorID: Int?
    /// The post's id.
    public var postID: Int?
    /// When it was written.
    public var createdAt: Date
    /// When its text last changed.
    public var updatedAt: Date

    /// A summary with the given values.
    public init(id: Int, text: String, authorID: Int?, postID: Int?, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.text = text
        self.authorID = authorID
        self.postID = postID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A comment with its author, as the comments list and comment writes return it.
public struct Comment: Sendable, Hashable, Identifiable {
    /// The server's id.
    public var id: Int
    /// The comment's text (the wire's `comment` field).
    public var text: String
    /// Who wrote it; owner checks compare `author.id` with the signed-in user's id.
    public var author: CommunityUser
    /// The post it belongs to; nil only for a comment whose post the original server had deleted.
    public var postID: Int?
    /// When it was written (milliseconds).
    public var createdAt: Date
    /// When its text last changed.
    public var updatedAt: Date
    /// A moderator hid it (Sprout's `hidden`): only its author still gets it, and should see it marked.
    public var isHidden: Bool

    /// A comment with the given values.
    public init(id: Int, text: String, author: CommunityUser, postID: Int?, createdAt: Date, updatedAt: Date, isHidden: Bool = false) {
        self.id = id
        self.text = text
        self.author = author
        self.postID = postID
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.isHidden = isHidden
    }

    /// The comment as a post carries it.
    public var summary: CommentSummary {
        CommentSummary(id: id, text: text, authorID: author.id, postID: postID, createdAt: createdAt, updatedAt: updatedAt)
    }
}

/// A `_sort` order for posts and comments (from SproutWire, where the wire values live):
/// `.newestFirst` is `created_at:desc`, `.oldestFirst` is `created_at:asc`.
public typealias CommunitySort = SproutWire.StrapiSort

/// What register and login answer: the token for every later call, and who it belongs to.
public struct CommunityAuth: Sendable, Hashable {
    /// The Bearer token (a JWT).
    public var token: String
    /// The signed-in user.
    public var user: CommunityUser

    /// An answer with the given values.
    public init(token: String, user: CommunityUser) {
        self.token = token
        self.user = user
    }
}
