import Foundation
import SproutWire

/// Boards and posts in SQL, for SQLite and PostgreSQL alike. A list page reads its total from `board_counts`; a
/// search page and its total are one statement through the substring indexes (title, contents, writer; "all" is
/// any of the three). Writes are one statement each and answer from what they changed.
struct SQLBoardRepository: Sendable {
    let executor: any SQLExecutor

    /// What `Board(row:)` reads, but for `has_new_post`.
    private static let boardColumns = "b.id, b.display_name, b.board_type, b.writable, b.archived, b.order_no"
    /// What `BoardPost(row:)` reads.
    private static let postColumns = """
        p.id, p.board_id, b.display_name AS board_display_name, p.account_id, a.username AS writer_name, a.email AS writer_email,
        p.parent_post_id, p.title, p.contents, p.post_type, p.is_anonymous, p.view_count, p.created_at,
        EXISTS (SELECT 1 FROM board_posts r WHERE r.parent_post_id = p.id AND r.hidden_at IS NULL) AS has_reply, p.hidden_at, p.pinned_at
        """
    private static let postSource = "board_posts p JOIN board_boards b ON b.id = p.board_id JOIN accounts a ON a.id = p.account_id"

    // MARK: - Boards

    /// Boards in display order; archived ones only when asked.
    func boards(includingArchived: Bool = false, now: Date) async throws -> [Board] {
        let statement: SQLStatement = """
            SELECT \(raw: Self.boardColumns),
              EXISTS (SELECT 1 FROM board_posts n WHERE n.board_id = b.id AND n.created_at > \(bind: now.addingTimeInterval(-BoardPost.newFor)) AND n.hidden_at IS NULL) AS has_new_post
            FROM board_boards b \(raw: includingArchived ? "" : "WHERE NOT b.archived") ORDER BY b.order_no, b.id
            """
        return try await executor.read(statement, as: Board.self)
    }

    /// A board that is not archived.
    func board(id: Int, now: Date) async throws -> Board? {
        let statement: SQLStatement = """
            SELECT \(raw: Self.boardColumns),
              EXISTS (SELECT 1 FROM board_posts n WHERE n.board_id = b.id AND n.created_at > \(bind: now.addingTimeInterval(-BoardPost.newFor)) AND n.hidden_at IS NULL) AS has_new_post
            FROM board_boards b WHERE b.id = \(bind: id)
            """
        return try await executor.readFirst(statement, as: Board.self)
    }

    func createBoard(displayName: String, type: BoardType, writable: Bool) async throws -> Board {
        let statement: SQLStatement = """
            INSERT INTO board_boards (display_name, board_type, writable, archived, order_no)
            VALUES (\(bind: displayName), \(bind: type.rawValue), \(bind: writable), FALSE, (SELECT coalesce(max(order_no), 0) + 1 FROM board_boards))
            RETURNING id, display_name, board_type, writable, archived, order_no, FALSE AS has_new_post
            """
        guard let board = try await executor.writeFirst(statement, as: Board.self) else { throw SQLRowError.missingReturnedRow }
        return board
    }

    /// Renames or archives a board (nil leaves that part alone).
    func changeBoard(id: Int, displayName: String?, archived: Bool?) async throws -> Board? {
        let statement: SQLStatement = """
            UPDATE board_boards SET display_name = coalesce(\(bind: displayName), display_name), archived = coalesce(\(bind: archived), archived)
            WHERE id = \(bind: id) RETURNING id, display_name, board_type, writable, archived, order_no, FALSE AS has_new_post
            """
        return try await executor.writeFirst(statement, as: Board.self)
    }

    // MARK: - Posts

    func posts(boardID: Int, query: BoardPostQuery) async throws -> (total: Int, posts: [BoardPost]) {
        if query.pinnedOnly { return try await pinnedPosts(boardID: boardID, query: query) }
        if let search = query.search {
            return try await searchPosts(boardID: boardID, text: BoardText.fold(search), query: query)
        }
        let total = try await executor.readFirst(
            "SELECT posts FROM board_counts WHERE board_id = \(bind: boardID)", as: SQLInt.self
        )?.value ?? 0
        guard let cut = PageCut(offset: query.offset, limit: query.limit, total: total) else { return (total, []) }
        // Ids first, from the board's index and from the nearer end; only the page's rows are joined.
        let statement: SQLStatement = """
            SELECT \(raw: Self.postColumns) FROM \(raw: Self.postSource)
            WHERE p.id IN (
              SELECT id FROM board_posts WHERE board_id = \(bind: boardID) AND hidden_at IS NULL
              ORDER BY id \(raw: cut.direction(descending: true)) \(cut.limitClause)
            )
            ORDER BY p.id DESC
            """
        return (total, try await executor.read(statement, as: BoardPost.self))
    }

    /// The board's pinned posts that everyone sees, newest pin first: a handful (`maximumPinnedPosts`), by the
    /// partial index.
    private func pinnedPosts(boardID: Int, query: BoardPostQuery) async throws -> (total: Int, posts: [BoardPost]) {
        let pinned = try await executor.read(
            """
            SELECT \(raw: Self.postColumns) FROM \(raw: Self.postSource)
            WHERE p.board_id = \(bind: boardID) AND p.pinned_at IS NOT NULL AND p.hidden_at IS NULL
            ORDER BY p.pinned_at DESC, p.id DESC
            """,
            as: BoardPost.self
        )
        return (pinned.count, Array(pinned.dropFirst(query.offset).prefix(query.limit)))
    }

    /// At or above this many matches a search's total is kept for the board's version (`board_search_totals`), and
    /// its pages are cut by a scan in id order that stops at the page's end.
    static let keptTotalMinimum = 500

    /// A common word's total is counted once per version of the board: every later page, and every repeat of the
    /// search until a post of the board is written, edited or deleted, reads the kept total and scans only as far
    /// as its page. Other searches count and cut their page in one statement through the indexes.
    private func searchPosts(boardID: Int, text folded: String, query: BoardPostQuery) async throws -> (total: Int, posts: [BoardPost]) {
        let kept = try await executor.readFirst("""
            SELECT c.version, t.total FROM board_counts c
            LEFT JOIN board_search_totals t
              ON t.board_id = c.board_id AND t.target = \(bind: query.target.rawValue) AND t.query = \(bind: folded) AND t.version = c.version
            WHERE c.board_id = \(bind: boardID)
            """, as: KeptSearchTotal.self)
        if let total = kept?.total {
            guard let cut = PageCut(offset: query.offset, limit: query.limit, total: total) else { return (total, []) }
            return (total, try await executor.slowRead(commonSearchPage(boardID: boardID, text: folded, query: query, cut: cut), as: BoardPost.self))
        }
        let rows = try await executor.slowRead(try await searchStatement(boardID: boardID, text: folded, query: query), as: BoardSearchRow.self)
        let total = rows.first?.total ?? 0
        // The version was read before the count: if a write came between, the kept total is already outdated and
        // is never read.
        if let version = kept?.version, total >= Self.keptTotalMinimum {
            try await executor.writeAll([
                "DELETE FROM board_search_totals WHERE board_id = \(bind: boardID) AND version < \(bind: version)",
                """
                INSERT INTO board_search_totals (board_id, target, query, version, total)
                VALUES (\(bind: boardID), \(bind: query.target.rawValue), \(bind: folded), \(bind: version), \(bind: total))
                ON CONFLICT (board_id, target, query) DO UPDATE SET version = excluded.version, total = excluded.total
                WHERE board_search_totals.version < excluded.version
                """,
            ])
        }
        return (total, rows.compactMap(\.post))
    }

    /// A page of a common word's matches: the board's posts in id order (from the nearer end), tested one by one,
    /// stopping at the page's end. `board_id = …` (not `+ 0`) puts PostgreSQL on the board's index in id order.
    private func commonSearchPage(boardID: Int, text: String, query: BoardPostQuery, cut: PageCut) -> SQLStatement {
        let condition = SQLStatement.joined(Self.indexes(for: query.target).map { $0.scanCondition(containing: text) }, separator: " OR ")
        return """
            SELECT \(raw: Self.postColumns) FROM \(raw: Self.postSource)
            WHERE p.id IN (SELECT id FROM board_posts WHERE board_id = \(bind: boardID) AND hidden_at IS NULL AND (\(condition))
                           ORDER BY id \(raw: cut.direction(descending: true)) \(cut.limitClause))
            ORDER BY p.id DESC
            """
    }

    private static func indexes(for target: BoardSearchTarget) -> [SubstringSearchIndex] {
        switch target {
        case .title: [BoardMigrations.titleSearch]
        case .contents: [BoardMigrations.contentsSearch]
        case .writer: [BoardMigrations.writerSearch]
        case .all: [BoardMigrations.titleSearch, BoardMigrations.contentsSearch, BoardMigrations.writerSearch]
        }
    }

    /// Matches counted and the page cut in one statement. `board_id + 0` keeps PostgreSQL's planner off the
    /// board's list index (which would read every post of the board and filter them) and on the trigram indexes.
    private func searchStatement(boardID: Int, text folded: String, query: BoardPostQuery) async throws -> SQLStatement {
        var parts: [SQLStatement] = []
        for index in Self.indexes(for: query.target) {
            let trigrams = try await index.narrowingTrigrams(of: folded, executor: executor)
            parts.append("(\(index.condition(containing: folded, narrowedBy: trigrams)))")
        }
        return """
            WITH matches AS MATERIALIZED (
              SELECT id FROM board_posts WHERE board_id + 0 = \(bind: boardID) AND hidden_at IS NULL AND (\(SQLStatement.joined(parts, separator: " OR ")))
            )
            SELECT (SELECT count(*) FROM matches) AS total, page.*
            FROM (SELECT 1 AS one) AS head
            LEFT JOIN (
              SELECT \(raw: Self.postColumns) FROM \(raw: Self.postSource)
              WHERE p.id IN (SELECT id FROM matches ORDER BY id DESC LIMIT \(bind: query.limit) OFFSET \(bind: query.offset))
            ) AS page ON true
            ORDER BY page.id DESC
            """
    }

    /// The posts with these ids that everyone sees (of any board); a post deleted or hidden is left out. For the
    /// events' items.
    func publicPosts(ids: [Int]) async throws -> [BoardPost] {
        guard !ids.isEmpty else { return [] }  // PostgreSQL refuses an empty IN ()
        return try await executor.read(
            "SELECT \(raw: Self.postColumns) FROM \(raw: Self.postSource) WHERE p.id IN (\(list: ids)) AND p.hidden_at IS NULL",
            as: BoardPost.self
        )
    }

    /// The post, if `viewer` may see it: a hidden post only its writer sees.
    func post(id: Int, boardID: Int, visibleTo viewer: Int?) async throws -> BoardPost? {
        try await executor.readFirst(
            """
            SELECT \(raw: Self.postColumns) FROM \(raw: Self.postSource)
            WHERE p.id = \(bind: id) AND p.board_id = \(bind: boardID) AND \(Self.visible(to: viewer))
            """,
            as: BoardPost.self
        )
    }

    /// Counts a view and answers the post as it is then (nothing counted for a post `viewer` may not see).
    func viewPost(id: Int, boardID: Int, visibleTo viewer: Int?) async throws -> BoardPost? {
        let counted = try await executor.writeFirst(
            """
            UPDATE board_posts AS p SET view_count = view_count + 1
            WHERE id = \(bind: id) AND board_id = \(bind: boardID) AND \(Self.visible(to: viewer)) RETURNING id
            """,
            as: SQLInt.self
        )
        guard counted != nil else { return nil }
        return try await post(id: id, boardID: boardID, visibleTo: viewer)
    }

    /// A post aliased `p` is shown unless a moderator hid it, and then to its writer only.
    private static func visible(to viewer: Int?) -> SQLStatement {
        "(p.hidden_at IS NULL OR p.account_id = \(bind: viewer ?? -1))"
    }

    func createPost(board: Board, author: Account, title: String, contents: String, parentPostID: Int?, at now: Date) async throws -> BoardPost {
        let postType = parentPostID != nil ? "reply" : board.boardType == .notice ? "notice" : "normal"
        let anonymous = board.boardType == .anonymous
        let statement: SQLStatement = """
            INSERT INTO board_posts (board_id, account_id, parent_post_id, title, contents, post_type, is_anonymous,
              created_at, updated_at, title_folded, contents_folded, writer_folded)
            VALUES (
              \(bind: board.id), \(bind: author.id), \(bind: parentPostID), \(bind: title), \(bind: contents), \(bind: postType),
              \(bind: anonymous), \(bind: now), \(bind: now), \(bind: BoardText.fold(title)), \(bind: BoardText.fold(contents)),
              \(bind: anonymous ? "" : BoardText.fold(author.username))
            )
            RETURNING id
            """
        guard let id = try await executor.writeFirst(statement, as: SQLInt.self)?.value,
              let post = try await post(id: id, boardID: board.id, visibleTo: author.id)
        else { throw SQLRowError.missingReturnedRow }
        executor.noteGrowth(of: "board_posts", by: 1)
        return post
    }

    /// Changes the author's own post; nil when there is no such post of theirs.
    func updatePost(id: Int, boardID: Int, accountID: Int, title: String, contents: String, at now: Date) async throws -> BoardPost? {
        let statement: SQLStatement = """
            UPDATE board_posts SET title = \(bind: title), contents = \(bind: contents), title_folded = \(bind: BoardText.fold(title)),
              contents_folded = \(bind: BoardText.fold(contents)), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND board_id = \(bind: boardID) AND account_id = \(bind: accountID) RETURNING id
            """
        guard try await executor.writeFirst(statement, as: SQLInt.self) != nil else { return nil }
        return try await post(id: id, boardID: boardID, visibleTo: accountID)
    }

    /// True when this call deleted the author's own post.
    func deletePost(id: Int, boardID: Int, accountID: Int) async throws -> Bool {
        let statement: SQLStatement = """
            DELETE FROM board_posts WHERE id = \(bind: id) AND board_id = \(bind: boardID) AND account_id = \(bind: accountID) RETURNING id
            """
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
            id: try row.int("id"), displayName: try row.string("display_name"),
            boardType: BoardType(rawValue: try row.string("board_type")) ?? .normal, writable: try row.bool("writable"),
            archived: try row.bool("archived"), orderNo: try row.int("order_no"), hasNewPost: try row.bool("has_new_post")
        )
    }
}

extension BoardPost: SQLRowDecodable {
    /// The columns of `SQLBoardRepository.postColumns`.
    init(row: some SQLRow) throws {
        self.init(
            id: try row.int("id"), boardID: try row.int("board_id"), boardDisplayName: try row.string("board_display_name"),
            accountID: try row.int("account_id"), writerName: try row.string("writer_name"), writerEmail: try row.string("writer_email"),
            parentPostID: try row.optionalInt("parent_post_id"), title: try row.string("title"),
            contents: try row.string("contents"), postType: try row.string("post_type"), isAnonymous: try row.bool("is_anonymous"),
            viewCount: try row.int("view_count"), createdAt: try row.date("created_at"), hasReply: try row.bool("has_reply"),
            hiddenAt: try row.optionalDate("hidden_at"), pinnedAt: try row.optionalDate("pinned_at")
        )
    }
}

/// The board's version, and the total kept for a search at that version if there is one.
private struct KeptSearchTotal: SQLRowDecodable {
    let version: Int
    let total: Int?

    init(row: some SQLRow) throws {
        version = try row.int("version")
        total = try row.optionalInt("total")
    }
}

private struct BoardSearchRow: SQLRowDecodable {
    let total: Int
    let post: BoardPost?

    init(row: some SQLRow) throws {
        total = try row.int("total")
        post = try row.isNull("id") ? nil : try BoardPost(row: row)
    }
}
