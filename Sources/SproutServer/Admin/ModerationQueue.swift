import Foundation

/// One item in the console's moderation list.
public struct ModeratedItem: Sendable, Equatable {
    public let kind: ModeratedKind
    public let id: Int
    public let authorID: Int
    public let authorName: String
    /// The first 200 characters of its text (a product's name, a board post's title).
    public let excerpt: String
    public let createdAt: Date
    public let hiddenAt: Date?
    /// Reports of it no moderator has acted on yet (one per person).
    public let openReports: Int
    /// A comment's post, a board post's board (`ModeratedKind.parentColumn`).
    public let parentID: Int?
}

/// What the moderation list shows.
public struct ModerationFilter: Sendable, Equatable {
    public var kind: ModeratedKind
    /// An author's exact username.
    public var author: String?
    /// Text the item contains (any case).
    public var text: String?
    public var onlyReported = false
    public var onlyHidden = false
    /// Items older than this id (the next page).
    public var beforeID: Int?
    public var limit = 50

    public init(kind: ModeratedKind, author: String? = nil, text: String? = nil, onlyReported: Bool = false, onlyHidden: Bool = false, beforeID: Int? = nil, limit: Int = 50) {
        self.kind = kind
        self.author = author
        self.text = text
        self.onlyReported = onlyReported
        self.onlyHidden = onlyHidden
        self.beforeID = beforeID
        self.limit = limit
    }
}

/// The console's moderation list: one kind of content newest first, a page at a time by id (no OFFSET, so page
/// 2,000 costs what page 1 does), filtered by author, text, reported or hidden. Hidden items are in it (that is
/// where a moderator restores them).
public struct ModerationQueue: Sendable {
    let executor: any SQLExecutor

    public init(database: SproutDatabase) {
        executor = database.executor
    }

    public func items(_ filter: ModerationFilter) async throws -> [ModeratedItem] {
        let kind = filter.kind
        var conditions: [SQLStatement] = []
        if let before = filter.beforeID { conditions.append("t.id < \(bind: before)") }
        if let author = filter.author { conditions.append("a.username = \(bind: author)") }
        if filter.onlyHidden { conditions.append("t.hidden_at IS NOT NULL") }
        let openReports: SQLStatement = "r.kind = \(bind: kind.rawValue) AND r.target_id = t.id AND r.resolved_at IS NULL"
        if filter.onlyReported { conditions.append("EXISTS (SELECT 1 FROM reports r WHERE \(openReports))") }
        if let text = filter.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
            let folded = text.precomposedStringWithCanonicalMapping.lowercased()
            conditions.append("lower(\(raw: kind.textColumn)) LIKE \(bind: folded.likeContainsPattern) ESCAPE '\\'")
        }
        let whereClause = conditions.isEmpty ? SQLStatement("1 = 1") : SQLStatement.joined(conditions, separator: " AND ")
        let statement: SQLStatement = """
            SELECT t.id, a.id AS author_id, a.username AS author_name, substr(\(raw: kind.excerptColumn), 1, 200) AS excerpt,
              t.created_at, t.hidden_at, (SELECT count(*) FROM reports r WHERE \(openReports)) AS open_reports,
              \(raw: kind.parentColumn) AS parent_id
            FROM \(raw: kind.table) t \(raw: kind.authorJoin)
            WHERE \(whereClause) ORDER BY t.id DESC LIMIT \(bind: min(max(filter.limit, 1), 200))
            """
        // A text filter scans: fenced like the apps' searches, so it cannot crowd out plain reads.
        let rows = filter.text == nil
            ? try await executor.read(statement, as: ModeratedItemRow.self)
            : try await executor.slowRead(statement, as: ModeratedItemRow.self)
        return rows.map { $0.item(kind) }
    }
}

private struct ModeratedItemRow: SQLRowDecodable {
    let id: Int, authorID: Int, authorName: String, excerpt: String, createdAt: Date, hiddenAt: Date?, openReports: Int, parentID: Int?

    init(row: some SQLRow) throws {
        id = try row.int("id")
        authorID = try row.int("author_id")
        authorName = try row.string("author_name")
        excerpt = try row.string("excerpt")
        createdAt = try row.date("created_at")
        hiddenAt = try row.optionalDate("hidden_at")
        openReports = try row.int("open_reports")
        parentID = try row.optionalInt("parent_id")
    }

    func item(_ kind: ModeratedKind) -> ModeratedItem {
        ModeratedItem(
            kind: kind, id: id, authorID: authorID, authorName: authorName, excerpt: excerpt, createdAt: createdAt,
            hiddenAt: hiddenAt, openReports: openReports, parentID: parentID
        )
    }
}
