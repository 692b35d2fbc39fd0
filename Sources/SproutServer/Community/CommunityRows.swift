import Foundation

/// How `SQLCommunityRepository`'s rows are read, next to the column lists they read (by name).
extension Author {
    static let columns = ["id", "username", "email", "blocked", "created_at", "updated_at"]

    /// `columns`, each named `prefix` + its name.
    init(row: some SQLRow, prefix: String) throws {
        self.init(
            id: try row.int(prefix + "id"),
            username: try row.string(prefix + "username"),
            email: try row.string(prefix + "email"),
            blocked: try row.isNull(prefix + "blocked") ? nil : try row.bool(prefix + "blocked"),
            createdAt: try row.date(prefix + "created_at"),
            updatedAt: try row.date(prefix + "updated_at")
        )
    }
}

extension ShallowPost: SQLRowDecodable {
    static let columns = ["id", "text", "user_id", "created_at", "updated_at"]

    /// `columns`, each named `prefix` + its name.
    init(row: some SQLRow, prefix: String) throws {
        self.init(
            id: try row.int(prefix + "id"), text: try row.string(prefix + "text"), authorID: try row.int(prefix + "user_id"),
            createdAt: try row.date(prefix + "created_at"), updatedAt: try row.date(prefix + "updated_at")
        )
    }

    init(row: some SQLRow) throws { try self.init(row: row, prefix: "") }
}

extension ShallowComment: SQLRowDecodable {
    init(row: some SQLRow) throws {
        self.init(
            id: try row.int("id"), text: try row.string("comment"), authorID: try row.int("user_id"), postID: try row.int("post_id"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at")
        )
    }
}

/// A post and its author (the comments come from a second statement).
struct PostRow: SQLRowDecodable {
    let id: Int
    let text: String
    let createdAt: Date
    let updatedAt: Date
    let author: Author

    init(row: some SQLRow) throws {
        id = try row.int("id")
        text = try row.string("text")
        createdAt = try row.date("created_at")
        updatedAt = try row.date("updated_at")
        author = try Author(row: row, prefix: "author_")
    }
}

/// A comment, its author and its post.
struct CommentRow: SQLRowDecodable {
    let comment: Comment

    init(row: some SQLRow) throws {
        comment = Comment(
            id: try row.int("id"),
            text: try row.string("comment"),
            author: try Author(row: row, prefix: "author_"),
            post: try ShallowPost(row: row, prefix: "post_"),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at")
        )
    }
}
