import Foundation

/// How `SQLCommunityRepository`'s rows are read, next to the column lists they read (by name).
extension Author {
    static let columns = ["id", "username", "email", "blocked", "created_at", "updated_at"]

    /// `columns` as one SELECT names them (`prefix` + name), joined once rather than for every row read.
    struct ColumnNames: Sendable {
        let prefix, id, username, email, blocked, createdAt, updatedAt: String

        init(prefix: String) {
            self.prefix = prefix
            (id, username, email) = (prefix + "id", prefix + "username", prefix + "email")
            (blocked, createdAt, updatedAt) = (prefix + "blocked", prefix + "created_at", prefix + "updated_at")
        }
    }

    /// The posts' and comments' authors, joined as `author_…`.
    static let joinedNames = ColumnNames(prefix: "author_")

    init(row: some SQLRow, names: ColumnNames) throws {
        self.init(
            id: try row.int(names.id),
            username: try row.string(names.username),
            email: try row.string(names.email),
            blocked: try row.isNull(names.blocked) ? nil : try row.bool(names.blocked),
            createdAt: try row.date(names.createdAt),
            updatedAt: try row.date(names.updatedAt)
        )
    }
}

extension ShallowPost: SQLRowDecodable {
    static let columns = ["id", "text", "user_id", "created_at", "updated_at"]

    /// `columns` as one SELECT names them (`prefix` + name), joined once rather than for every row read.
    struct ColumnNames: Sendable {
        let prefix, id, text, userID, createdAt, updatedAt: String

        init(prefix: String) {
            self.prefix = prefix
            (id, text, userID) = (prefix + "id", prefix + "text", prefix + "user_id")
            (createdAt, updatedAt) = (prefix + "created_at", prefix + "updated_at")
        }
    }

    static let ownNames = ColumnNames(prefix: "")
    /// A comment's post, joined as `post_…`.
    static let joinedNames = ColumnNames(prefix: "post_")

    init(row: some SQLRow, names: ColumnNames) throws {
        self.init(
            id: try row.int(names.id), text: try row.string(names.text), authorID: try row.int(names.userID),
            createdAt: try row.date(names.createdAt), updatedAt: try row.date(names.updatedAt)
        )
    }

    init(row: some SQLRow) throws { try self.init(row: row, names: Self.ownNames) }
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
    let hiddenAt: Date?

    init(row: some SQLRow) throws {
        id = try row.int("id")
        text = try row.string("text")
        createdAt = try row.date("created_at")
        updatedAt = try row.date("updated_at")
        author = try Author(row: row, names: Author.joinedNames)
        hiddenAt = try row.optionalDate("hidden_at")
    }
}

/// A comment, its author and its post.
struct CommentRow: SQLRowDecodable {
    let comment: Comment

    init(row: some SQLRow) throws {
        comment = Comment(
            id: try row.int("id"),
            text: try row.string("comment"),
            author: try Author(row: row, names: Author.joinedNames),
            post: try ShallowPost(row: row, names: ShallowPost.joinedNames),
            createdAt: try row.date("created_at"),
            updatedAt: try row.date("updated_at"),
            hiddenAt: try row.optionalDate("hidden_at")
        )
    }
}
