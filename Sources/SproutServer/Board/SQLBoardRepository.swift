import Foundation

/// Boards and posts in SQL, for SQLite and PostgreSQL alike. A list page reads its total from `board_counts`; a
/// search page and its total are one statement through the substring indexes (title, contents, writer; "all" is
/// any of the three). Writes are one statement each and answer from what they changed.
struct SQLBoardRepository: Sendable {
    let executor: any SQLExecutor

    private static let boardColumns = "b.id, b.display_name, b.board_type, b.writable, b.archived, b.order_no"
    private static let postColumns = """
        p.id, p.board_id, b.display_name, p.account_id, a.username, a.email, p.parent_post_id, p.title, p.contents,
        p.post_type, p.is_anonymous, p.view_count, p.created_at,
        EXISTS (SELECT 1 FROM board_posts r WHERE r.parent_post_id = p.id) AS has_reply
        """
    private static let postSource = "board_posts p JOIN board_boards b ON b.id = p.board_id JOIN accounts a ON a.id = p.account_id"

    // MARK: - Boards

    /// Boards in display order; archived ones only when asked.
    func boards(includingArchived: Bool = false, now: Date) async throws -> [Board] {
        let statement = SQLStatement(
            """
            SELECT \(Self.boardColumns),
              EXISTS (SELECT 1 FROM board_posts n WHERE n.board_id = b.id AND n.created_at > $1)
            FROM board_boards b \(includingArchived ? "" : "WHERE NOT b.archived") ORDER BY b.order_no, b.id
            """,
            .date(now.addingTimeInterval(-BoardPost.newFor))
        )
        return try await executor.read(statement, as: Board.self)
    }

    /// A board that is not archived.
    func board(id: Int, now: Date) async throws -> Board? {
        let statement = SQLStatement(
            """
            SELECT \(Self.boardColumns),
              EXISTS (SELECT 1 FROM board_posts n WHERE n.board_id = b.id AND n.created_at > $2)
            FROM board_boards b WHERE b.id = $1 AND NOT b.archived
            """,
            .int(id), .date(now.addingTimeInterval(-BoardPost.newFor))
        )
        return try await executor.readFirst(statement, as: Board.self)
    }

    func createBoard(displayName: String, type: BoardType, writable: Bool) async throws -> Board {
        let statement = SQLStatement(
            """
            INSERT INTO board_boards (display_name, board_type, writable, archived, order_no)
            VALUES ($1, $2, $3, FALSE, (SELECT coalesce(max(order_no), 0) + 1 FROM board_boards))
            RETURNING id, display_name, board_type, writable, archived, order_no, FALSE
            """,
            .text(displayName), .text(type.rawValue), .bool(writable)
        )
        guard let board = try await executor.writeFirst(statement, as: Board.self) else { throw SQLRowError.missingReturnedRow }
        return board
    }

    /// Renames or archives a board (nil leaves that part alone).
    func changeBoard(id: Int, displayName: String?, archived: Bool?) async throws -> Board? {
        let statement = SQLStatement(
            """
            UPDATE board_boards SET display_name = coalesce($2, display_name), archived = coalesce($3, archived)
            WHERE id = $1 RETURNING id, display_name, board_type, writable, archived, order_no, FALSE
            """,
            .int(id), displayName.map(SQLValue.text) ?? .null, archived.map(SQLValue.bool) ?? .null
        )
        return try await executor.writeFirst(statement, as: Board.self)
    }

    // MARK: - Posts

    func posts(boardID: Int, query: BoardPostQuery) async throws -> (total: Int, posts: [BoardPost]) {
        if let search = query.search {
            return try await searchPosts(boardID: boardID, text: BoardText.fold(search), query: query)
        }
        let total = try await executor.readFirst(
            SQLStatement("SELECT posts FROM board_counts WHERE board_id = $1", .int(boardID)), as: SQLInt.self
        )?.value ?? 0
        guard query.offset < total else { return (total, []) }
        // Ids first, from the board's index and from the nearer end; only the page's rows are joined.
        let end = min(query.offset + query.limit, total)
        let fromTheEnd = total - end < query.offset
        let statement = SQLStatement(
            """
            SELECT \(Self.postColumns) FROM \(Self.postSource)
            WHERE p.id IN (SELECT id FROM board_posts WHERE board_id = $1 ORDER BY id \(fromTheEnd ? "ASC" : "DESC") LIMIT $2 OFFSET $3)
            ORDER BY p.id DESC
            """,
            .int(boardID), .int(end - query.offset), .int(fromTheEnd ? total - end : query.offset)
        )
        return (total, try await executor.read(statement, as: BoardPost.self))
    }

    /// At or above this many matches a search's total is kept for the board's version (`board_search_totals`), and
    /// its pages are cut by a scan in id order that stops at the page's end.
    static let keptTotalMinimum = 500

    /// A common word's total is counted once per version of the board: every later page, and every repeat of the
    /// search until a post of the board is written, edited or deleted, reads the kept total and scans only as far
    /// as its page. Other searches count and cut their page in one statement through the indexes.
    private func searchPosts(boardID: Int, text folded: String, query: BoardPostQuery) async throws -> (total: Int, posts: [BoardPost]) {
        let kept = try await executor.readFirst(SQLStatement("""
            SELECT c.version, t.total FROM board_counts c
            LEFT JOIN board_search_totals t ON t.board_id = c.board_id AND t.target = $2 AND t.query = $3 AND t.version = c.version
            WHERE c.board_id = $1
            """, .int(boardID), .text(query.target.rawValue), .text(folded)), as: KeptSearchTotal.self)
        if let total = kept?.total {
            guard query.offset < total else { return (total, []) }
            return (total, try await executor.slowRead(commonSearchPage(boardID: boardID, text: folded, query: query, total: total), as: BoardPost.self))
        }
        let rows = try await executor.slowRead(try await searchStatement(boardID: boardID, text: folded, query: query), as: BoardSearchRow.self)
        let total = rows.first?.total ?? 0
        // The version was read before the count: if a write came between, the kept total is already outdated and
        // is never read.
        if let version = kept?.version, total >= Self.keptTotalMinimum {
            try await executor.writeAll([
                SQLStatement("DELETE FROM board_search_totals WHERE board_id = $1 AND version < $2", .int(boardID), .int(version)),
                SQLStatement("""
                    INSERT INTO board_search_totals (board_id, target, query, version, total) VALUES ($1, $2, $3, $4, $5)
                    ON CONFLICT (board_id, target, query) DO UPDATE SET version = excluded.version, total = excluded.total
                    WHERE board_search_totals.version < excluded.version
                    """, .int(boardID), .text(query.target.rawValue), .text(folded), .int(version), .int(total)),
            ])
        }
        return (total, rows.compactMap(\.post))
    }

    /// A page of a common word's matches: the board's posts in id order (from the nearer end), tested one by one,
    /// stopping at the page's end. `board_id = $1` (not `+ 0`) puts PostgreSQL on the board's index in id order.
    private func commonSearchPage(boardID: Int, text: String, query: BoardPostQuery, total: Int) -> SQLStatement {
        var statement = SQLStatement(sql: "", binds: [.int(boardID)])
        let indexes: [SubstringSearchIndex] = switch query.target {
        case .title: [BoardMigrations.titleSearch]
        case .contents: [BoardMigrations.contentsSearch]
        case .writer: [BoardMigrations.writerSearch]
        case .all: [BoardMigrations.titleSearch, BoardMigrations.contentsSearch, BoardMigrations.writerSearch]
        }
        let condition = "(" + indexes.map { $0.scanCondition(containing: text, statement: &statement) }.joined(separator: " OR ") + ")"
        let end = min(query.offset + query.limit, total)
        let fromTheEnd = total - end < query.offset
        let limit = statement.bind(.int(end - query.offset))
        let offset = statement.bind(.int(fromTheEnd ? total - end : query.offset))
        statement.sql = """
            SELECT \(Self.postColumns) FROM \(Self.postSource)
            WHERE p.id IN (SELECT id FROM board_posts WHERE board_id = $1 AND \(condition)
                           ORDER BY id \(fromTheEnd ? "ASC" : "DESC") LIMIT \(limit) OFFSET \(offset))
            ORDER BY p.id DESC
            """
        return statement
    }

    /// Matches counted and the page cut in one statement. `board_id + 0` keeps PostgreSQL's planner off the
    /// board's list index (which would read every post of the board and filter them) and on the trigram indexes.
    private func searchStatement(boardID: Int, text folded: String, query: BoardPostQuery) async throws -> SQLStatement {
        var statement = SQLStatement(sql: "", binds: [.int(boardID)])
        let indexes: [SubstringSearchIndex] = switch query.target {
        case .title: [BoardMigrations.titleSearch]
        case .contents: [BoardMigrations.contentsSearch]
        case .writer: [BoardMigrations.writerSearch]
        case .all: [BoardMigrations.titleSearch, BoardMigrations.contentsSearch, BoardMigrations.writerSearch]
        }
        var parts: [String] = []
        for index in indexes {
            let trigrams = try await index.narrowingTrigrams(of: folded, executor: executor)
            parts.append("(" + index.condition(containing: folded, narrowedBy: trigrams, statement: &statement) + ")")
        }
        let condition = "(" + parts.joined(separator: " OR ") + ")"
        let limit = statement.bind(.int(query.limit))
        let offset = statement.bind(.int(query.offset))
        statement.sql = """
            WITH matches AS MATERIALIZED (SELECT id FROM board_posts WHERE board_id + 0 = $1 AND \(condition))
            SELECT (SELECT count(*) FROM matches) AS total, page.*
            FROM (SELECT 1 AS one) AS head
            LEFT JOIN (
              SELECT \(Self.postColumns) FROM \(Self.postSource)
              WHERE p.id IN (SELECT id FROM matches ORDER BY id DESC LIMIT \(limit) OFFSET \(offset))
            ) AS page ON true
            ORDER BY page.id DESC
            """
        return statement
    }

    func post(id: Int, boardID: Int) async throws -> BoardPost? {
        try await executor.readFirst(
            SQLStatement("SELECT \(Self.postColumns) FROM \(Self.postSource) WHERE p.id = $1 AND p.board_id = $2", .int(id), .int(boardID)),
            as: BoardPost.self
        )
    }

    /// Counts a view and answers the post as it is then.
    func viewPost(id: Int, boardID: Int) async throws -> BoardPost? {
        let counted = try await executor.writeFirst(
            SQLStatement("UPDATE board_posts SET view_count = view_count + 1 WHERE id = $1 AND board_id = $2 RETURNING id", .int(id), .int(boardID)),
            as: SQLInt.self
        )
        guard counted != nil else { return nil }
        return try await post(id: id, boardID: boardID)
    }

    func createPost(board: Board, author: Account, title: String, contents: String, parentPostID: Int?, at now: Date) async throws -> BoardPost {
        let postType = parentPostID != nil ? "reply" : board.boardType == .notice ? "notice" : "normal"
        let anonymous = board.boardType == .anonymous
        let statement = SQLStatement(
            """
            INSERT INTO board_posts (board_id, account_id, parent_post_id, title, contents, post_type, is_anonymous,
              created_at, updated_at, title_folded, contents_folded, writer_folded)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10, $11) RETURNING id
            """,
            .int(board.id), .int(author.id), parentPostID.map(SQLValue.int) ?? .null, .text(title), .text(contents),
            .text(postType), .bool(anonymous), .date(now), .text(BoardText.fold(title)), .text(BoardText.fold(contents)),
            .text(anonymous ? "" : BoardText.fold(author.username))
        )
        guard let id = try await executor.writeFirst(statement, as: SQLInt.self)?.value,
              let post = try await post(id: id, boardID: board.id)
        else { throw SQLRowError.missingReturnedRow }
        executor.noteGrowth(of: "board_posts", by: 1)
        return post
    }

    /// Changes the author's own post; nil when there is no such post of theirs.
    func updatePost(id: Int, boardID: Int, accountID: Int, title: String, contents: String, at now: Date) async throws -> BoardPost? {
        let statement = SQLStatement(
            """
            UPDATE board_posts SET title = $4, contents = $5, title_folded = $6, contents_folded = $7, updated_at = $8
            WHERE id = $1 AND board_id = $2 AND account_id = $3 RETURNING id
            """,
            .int(id), .int(boardID), .int(accountID), .text(title), .text(contents), .text(BoardText.fold(title)),
            .text(BoardText.fold(contents)), .date(now)
        )
        guard try await executor.writeFirst(statement, as: SQLInt.self) != nil else { return nil }
        return try await post(id: id, boardID: boardID)
    }

    /// True when this call deleted the author's own post.
    func deletePost(id: Int, boardID: Int, accountID: Int) async throws -> Bool {
        let statement = SQLStatement(
            "DELETE FROM board_posts WHERE id = $1 AND board_id = $2 AND account_id = $3 RETURNING id",
            .int(id), .int(boardID), .int(accountID)
        )
        return try await executor.writeFirst(statement, as: SQLInt.self) != nil
    }
}

/// Text as the search columns hold it: NFC, lowercased.
enum BoardText {
    static func fold(_ text: String) -> String { text.precomposedStringWithCanonicalMapping.lowercased() }
}

extension Board: SQLRowDecodable {
    init(row: some SQLRow) throws {
        self.init(
            id: try row.int(0), displayName: try row.string(1), boardType: BoardType(rawValue: try row.string(2)) ?? .normal,
            writable: try row.bool(3), archived: try row.bool(4), orderNo: try row.int(5), hasNewPost: try row.bool(6)
        )
    }
}

extension BoardPost: SQLRowDecodable {
    init(row: some SQLRow, offset: Int) throws {
        self.init(
            id: try row.int(offset), boardID: try row.int(offset + 1), boardDisplayName: try row.string(offset + 2),
            accountID: try row.int(offset + 3), writerName: try row.string(offset + 4), writerEmail: try row.string(offset + 5),
            parentPostID: row.isNull(offset + 6) ? nil : try row.int(offset + 6), title: try row.string(offset + 7),
            contents: try row.string(offset + 8), postType: try row.string(offset + 9), isAnonymous: try row.bool(offset + 10),
            viewCount: try row.int(offset + 11), createdAt: try row.date(offset + 12), hasReply: try row.bool(offset + 13)
        )
    }

    init(row: some SQLRow) throws { try self.init(row: row, offset: 0) }
}

/// The board's version, and the total kept for a search at that version if there is one.
private struct KeptSearchTotal: SQLRowDecodable {
    let version: Int
    let total: Int?

    init(row: some SQLRow) throws {
        version = try row.int(0)
        total = row.isNull(1) ? nil : try row.int(1)
    }
}

private struct BoardSearchRow: SQLRowDecodable {
    let total: Int
    let post: BoardPost?

    init(row: some SQLRow) throws {
        total = try row.int(0)
        post = row.isNull(1) ? nil : try BoardPost(row: row, offset: 1)
    }
}
