import Foundation

/// Posts and comments in SQL, for SQLite and PostgreSQL alike. A page of posts is always two statements (the
/// posts with their authors, then all their comments), whatever its size: no query per post.
struct SQLCommunityRepository: AccountActivity {
    let executor: any SQLExecutor

    static let postFields: [CollectionQuery.Field] = [
        .init(name: "id", column: "id", kind: .integer),
        .init(name: "text", column: "text", kind: .text),
        .init(name: "user", column: "user_id", kind: .integer),
        .init(name: "created_at", column: "created_at", kind: .date),
        .init(name: "updated_at", column: "updated_at", kind: .date),
    ]

    static let commentFields: [CollectionQuery.Field] = [
        .init(name: "id", column: "id", kind: .integer),
        .init(name: "comment", column: "comment", kind: .text),
        .init(name: "user", column: "user_id", kind: .integer),
        .init(name: "post", column: "post_id", kind: .integer),
        .init(name: "created_at", column: "created_at", kind: .date),
        .init(name: "updated_at", column: "updated_at", kind: .date),
    ]

    /// What `Author(row:names: Author.joinedNames)` reads.
    private static let authorColumns = prefixedColumns(Author.columns, of: "a", as: Author.joinedNames.prefix)
    /// What `ShallowPost(row:)` reads.
    private static let postColumns = "p.id, p.text, p.user_id, p.created_at, p.updated_at, p.hidden_at"
    /// What `ShallowComment(row:)` reads.
    private static let shallowCommentColumns = "id, comment, user_id, post_id, created_at, updated_at"

    // MARK: - Posts

    func posts(_ query: CollectionQuery, viewer: Int) async throws -> [Post] {
        let statement: SQLStatement = """
            SELECT \(raw: Self.postColumns), \(raw: Self.authorColumns) FROM posts p JOIN accounts a ON a.id = p.user_id
            WHERE \(query.whereClause(table: "p")) AND \(Self.postVisible(to: viewer))
            ORDER BY \(raw: query.orderClause(table: "p")) \(query.limitClause(executor.dialect))
            """
        let rows = try await executor.read(statement, as: PostRow.self)
        return try await attachComments(to: rows, viewer: viewer)
    }

    /// The ids of the posts `query` lists, in its order: what a large answer is streamed from.
    func postIDs(_ query: CollectionQuery, viewer: Int) async throws -> [Int] {
        try await ids(of: "posts", query, visible: Self.postVisible(to: viewer))
    }

    /// The posts with these ids, in the order given; ids of posts deleted (or hidden) meanwhile are left out.
    func posts(ids: [Int], viewer: Int) async throws -> [Post] {
        guard !ids.isEmpty else { return [] }  // PostgreSQL refuses an empty IN ()
        let statement: SQLStatement = """
            SELECT \(raw: Self.postColumns), \(raw: Self.authorColumns) FROM posts p JOIN accounts a ON a.id = p.user_id
            WHERE p.id IN (\(list: ids)) AND \(Self.postVisible(to: viewer))
            """
        return Self.ordered(try await attachComments(to: executor.read(statement, as: PostRow.self), viewer: viewer), as: ids, id: \.id)
    }

    /// A viewer that is no account (ids start at 1): it sees what everyone sees, nothing hidden.
    static let nobody = 0

    /// The posts with these ids as everyone sees them (with their comments that are not hidden); a post deleted
    /// or hidden is left out. For the events' items.
    func publicPosts(ids: [Int]) async throws -> [Post] {
        try await posts(ids: ids, viewer: Self.nobody)
    }

    func countPosts(_ query: CollectionQuery, viewer: Int) async throws -> Int {
        let statement: SQLStatement = "SELECT count(*) FROM posts p WHERE \(query.whereClause(table: "p")) AND \(Self.postVisible(to: viewer))"
        return try await executor.readFirst(statement, as: SQLInt.self)?.value ?? 0
    }

    func post(id: Int, viewer: Int) async throws -> Post? {
        let statement: SQLStatement = """
            SELECT \(raw: Self.postColumns), \(raw: Self.authorColumns) FROM posts p JOIN accounts a ON a.id = p.user_id
            WHERE p.id = \(bind: id) AND \(Self.postVisible(to: viewer))
            """
        return try await attachComments(to: executor.read(statement.prepared(), as: PostRow.self), viewer: viewer).first
    }

    /// A post (aliased `p`) is shown unless a moderator hid it, and then to its author only.
    private static func postVisible(to viewer: Int) -> SQLStatement {
        "(p.hidden_at IS NULL OR p.user_id = \(bind: viewer))"
    }

    /// A comment (aliased `c`) is shown unless a moderator hid it or its post, and then to their authors only.
    private static func commentVisible(to viewer: Int) -> SQLStatement {
        """
        (c.hidden_at IS NULL OR c.user_id = \(bind: viewer))
        AND NOT EXISTS (SELECT 1 FROM posts hp WHERE hp.id = c.post_id AND hp.hidden_at IS NOT NULL AND hp.user_id <> \(bind: viewer))
        """
    }

    func createPost(text: String, by author: Author, at now: Date) async throws -> Post {
        let statement: SQLStatement = """
            INSERT INTO posts (text, user_id, created_at, updated_at) VALUES (\(bind: text), \(bind: author.id), \(bind: now), \(bind: now))
            RETURNING id, text, user_id, created_at, updated_at
            """
        guard let row = try await executor.writeFirst(statement, as: ShallowPost.self) else { throw SQLRowError.missingReturnedRow }
        executor.noteGrowth(of: "posts", by: 1)
        return Post(id: row.id, text: row.text, author: author, createdAt: row.createdAt, updatedAt: row.updatedAt, comments: [])
    }

    /// Changes the text of the owner's post; `.notFound` or `.notOwner` otherwise, decided on the row as the
    /// UPDATE finds it.
    func updatePost(id: Int, text: String, by accountID: Int, at now: Date) async throws -> Result<Post, OwnedWriteFailure> {
        let statement: SQLStatement = """
            UPDATE posts SET text = \(bind: text), updated_at = \(bind: now) WHERE id = \(bind: id) AND user_id = \(bind: accountID) RETURNING id
            """
        guard try await executor.writeFirst(statement, as: SQLInt.self) != nil else {
            return .failure(try await failure(table: "posts", id: id))
        }
        guard let post = try await post(id: id, viewer: accountID) else { return .failure(.notFound) }
        return .success(post)
    }

    /// Deletes the owner's post and, with it, its comments; answers the post as the DELETE found it (an edit
    /// that committed in between is in the answer) with the comments it had.
    func deletePost(id: Int, by accountID: Int) async throws -> Result<Post, OwnedWriteFailure> {
        guard let post = try await post(id: id, viewer: accountID) else { return .failure(.notFound) }
        guard post.author.id == accountID else { return .failure(.notOwner) }
        let statement: SQLStatement = """
            DELETE FROM posts WHERE id = \(bind: id) AND user_id = \(bind: accountID) RETURNING id, text, user_id, created_at, updated_at
            """
        // Nothing deleted: another request deleted it first.
        guard let deleted = try await executor.writeFirst(statement, as: ShallowPost.self) else { return .failure(.notFound) }
        return .success(Post(
            id: deleted.id, text: deleted.text, author: post.author, createdAt: deleted.createdAt, updatedAt: deleted.updatedAt,
            comments: post.comments
        ))
    }

    // MARK: - Comments

    func comments(_ query: CollectionQuery, viewer: Int) async throws -> [Comment] {
        let statement: SQLStatement = """
            \(raw: Self.commentSelect) WHERE \(query.whereClause(table: "c")) AND \(Self.commentVisible(to: viewer))
            ORDER BY \(raw: query.orderClause(table: "c")) \(query.limitClause(executor.dialect))
            """
        return try await executor.read(statement, as: CommentRow.self).map(\.comment)
    }

    /// The ids of the comments `query` lists, in its order.
    func commentIDs(_ query: CollectionQuery, viewer: Int) async throws -> [Int] {
        try await ids(of: "comments", query, visible: Self.commentVisible(to: viewer))
    }

    /// The comments with these ids, in the order given; ids of comments deleted meanwhile are left out.
    func comments(ids: [Int], viewer: Int) async throws -> [Comment] {
        guard !ids.isEmpty else { return [] }
        let statement: SQLStatement = "\(raw: Self.commentSelect) WHERE c.id IN (\(list: ids)) AND \(Self.commentVisible(to: viewer))"
        return Self.ordered(try await executor.read(statement, as: CommentRow.self).map(\.comment), as: ids, id: \.id)
    }

    /// The comments with these ids as everyone sees them; a comment deleted, hidden or under a hidden post is
    /// left out. For the events' items.
    func publicComments(ids: [Int]) async throws -> [Comment] {
        try await comments(ids: ids, viewer: Self.nobody)
    }

    func countComments(_ query: CollectionQuery, viewer: Int) async throws -> Int {
        let statement: SQLStatement = "SELECT count(*) FROM comments c WHERE \(query.whereClause(table: "c")) AND \(Self.commentVisible(to: viewer))"
        return try await executor.readFirst(statement, as: SQLInt.self)?.value ?? 0
    }

    func comment(id: Int, viewer: Int) async throws -> Comment? {
        let statement: SQLStatement = "\(raw: Self.commentSelect) WHERE c.id = \(bind: id) AND \(Self.commentVisible(to: viewer))"
        return try await executor.readFirst(statement.prepared(), as: CommentRow.self)?.comment
    }

    /// Adds a comment to a post; nil when the post does not exist.
    func createComment(text: String, postID: Int, by author: Author, at now: Date) async throws -> Comment? {
        let statement: SQLStatement = """
            INSERT INTO comments (comment, post_id, user_id, created_at, updated_at)
            SELECT \(bind: text), id, \(bind: author.id), \(bind: now), \(bind: now) FROM posts p
            WHERE id = \(bind: postID) AND \(Self.postVisible(to: author.id)) RETURNING id
            """
        // Prepared: parsing and planning it (its join to the post) and its read back took 43 % of PostgreSQL's time.
        guard let id = try await executor.writeFirst(statement.prepared(), as: SQLInt.self)?.value else { return nil }
        executor.noteGrowth(of: "comments", by: 1)
        return try await comment(id: id, viewer: author.id)
    }

    func updateComment(id: Int, text: String, by accountID: Int, at now: Date) async throws -> Result<Comment, OwnedWriteFailure> {
        let statement: SQLStatement = """
            UPDATE comments SET comment = \(bind: text), updated_at = \(bind: now) WHERE id = \(bind: id) AND user_id = \(bind: accountID) RETURNING id
            """
        guard try await executor.writeFirst(statement, as: SQLInt.self) != nil else {
            return .failure(try await failure(table: "comments", id: id))
        }
        guard let comment = try await comment(id: id, viewer: accountID) else { return .failure(.notFound) }
        return .success(comment)
    }

    func deleteComment(id: Int, by accountID: Int) async throws -> Result<Comment, OwnedWriteFailure> {
        guard let comment = try await comment(id: id, viewer: accountID) else { return .failure(.notFound) }
        guard comment.author.id == accountID else { return .failure(.notOwner) }
        let statement: SQLStatement = """
            DELETE FROM comments WHERE id = \(bind: id) AND user_id = \(bind: accountID) RETURNING \(raw: Self.shallowCommentColumns)
            """
        guard let deleted = try await executor.writeFirst(statement, as: ShallowComment.self) else { return .failure(.notFound) }
        return .success(Comment(
            id: deleted.id, text: deleted.text, author: comment.author, post: comment.post, createdAt: deleted.createdAt, updatedAt: deleted.updatedAt
        ))
    }

    // MARK: - An account's activity

    func activity(ofAccount id: Int) async throws -> AccountActivitySummary {
        async let posts = executor.read(
            "SELECT id, text, user_id, created_at, updated_at FROM posts WHERE user_id = \(bind: id) ORDER BY id",
            as: ShallowPost.self
        )
        async let comments = executor.read(
            "SELECT \(raw: Self.shallowCommentColumns) FROM comments WHERE user_id = \(bind: id) ORDER BY id",
            as: ShallowComment.self
        )
        return AccountActivitySummary(posts: try await posts, comments: try await comments)
    }

    // MARK: - Helpers

    /// What `CommentRow` reads, from a comment joined to its author and post.
    private static let commentSelect = """
        SELECT c.id, c.comment, c.created_at, c.updated_at, c.hidden_at, \(authorColumns),
          \(prefixedColumns(ShallowPost.columns, of: "p", as: ShallowPost.joinedNames.prefix))
        FROM comments c JOIN accounts a ON a.id = c.user_id JOIN posts p ON p.id = c.post_id
        """

    /// The ids a listing of `table` names (aliased by its first letter, as the filters and order expect).
    private func ids(of table: String, _ query: CollectionQuery, visible: SQLStatement) async throws -> [Int] {
        let alias = String(table.prefix(1))
        let statement: SQLStatement = """
            SELECT \(raw: alias).id FROM \(raw: table) \(raw: alias) WHERE \(query.whereClause(table: alias)) AND \(visible)
            ORDER BY \(raw: query.orderClause(table: alias)) \(query.limitClause(executor.dialect))
            """
        return try await executor.read(statement, as: SQLInt.self).map(\.value)
    }

    private static func ordered<Row>(_ rows: [Row], as ids: [Int], id: (Row) -> Int) -> [Row] {
        let byID = Dictionary(rows.map { (id($0), $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }

    /// Why an owner-only write changed nothing: the row is not there, or it is someone else's.
    private func failure(table: String, id: Int) async throws -> OwnedWriteFailure {
        // Someone else's hidden row is not there for the caller.
        let exists = try await executor.readFirst("SELECT 1 FROM \(raw: table) WHERE id = \(bind: id) AND hidden_at IS NULL", as: SQLInt.self)
        return exists == nil ? .notFound : .notOwner
    }

    /// Every comment of the given posts, in a few statements of up to 500 ids each (one for any usual page).
    private func attachComments(to rows: [PostRow], viewer: Int) async throws -> [Post] {
        guard !rows.isEmpty else { return [] }
        var byPost: [Int: [ShallowComment]] = [:]
        for chunk in stride(from: 0, to: rows.count, by: 500).map({ rows[$0..<min($0 + 500, rows.count)] }) {
            let statement: SQLStatement = """
                SELECT \(raw: Self.shallowCommentColumns) FROM comments
                WHERE post_id IN (\(list: chunk.map(\.id))) AND (hidden_at IS NULL OR user_id = \(bind: viewer)) ORDER BY post_id, id
                """
            // One post's comments (its detail) is one statement, kept prepared; longer lists would make one per length.
            for comment in try await executor.read(chunk.count == 1 ? statement.prepared() : statement, as: ShallowComment.self) {
                byPost[comment.postID, default: []].append(comment)
            }
        }
        return rows.map { row in
            Post(
                id: row.id, text: row.text, author: row.author, createdAt: row.createdAt, updatedAt: row.updatedAt,
                comments: byPost[row.id] ?? [], hiddenAt: row.hiddenAt
            )
        }
    }
}

enum OwnedWriteFailure: Error {
    case notFound
    case notOwner
}
