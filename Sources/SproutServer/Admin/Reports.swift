import Foundation
import SproutWire

/// A report as stored.
public struct Report: Sendable, Equatable {
    public let id: Int
    public let kind: ModeratedKind
    public let targetID: Int
    public let reporterID: Int
    public let reason: String
    public let createdAt: Date
}

/// One reported item in the queue: how many people reported it (each once), when first and last, the newest
/// reason, and what it is.
public struct ReportedItem: Sendable, Equatable {
    public let kind: ModeratedKind
    public let targetID: Int
    public let reporters: Int
    public let firstReportedAt: Date
    public let lastReportedAt: Date
    public let latestReason: String
    /// A short text of the item (nil when it is gone).
    public let excerpt: String?
    public let authorID: Int?
    public let hidden: Bool
    /// A comment's post, a board post's board (`ModeratedKind.parentColumn`); nil when gone or not needed.
    public let parentID: Int?
}

/// Reports by signed-in people (`POST /api/reports`, the web app's 신고 button) and the open queue the console and
/// `sprout report list` show. A report is resolved when a moderator acts on its item (`Moderation`).
public struct Reports: Sendable {
    /// Reports one account may file per hour.
    static let perAccountPerHour = 30
    static let reasonLength = 1...1_000

    let executor: any SQLExecutor
    let ledger: RateLimitLedger

    init(executor: any SQLExecutor) {
        self.executor = executor
        ledger = RateLimitLedger(executor: executor)
    }

    public init(database: SproutDatabase) {
        self.init(executor: database.executor)
    }

    /// Files the account's report of an item it can see, or answers its open report of that item.
    func file(kind: ModeratedKind, targetID: Int, reason: String, by account: Account, at now: Date) async throws -> Report {
        let visible: SQLStatement = """
            EXISTS (SELECT 1 FROM \(raw: kind.table) t WHERE t.id = \(bind: targetID)
                    AND (t.hidden_at IS NULL OR \(raw: kind.authorColumn) = \(bind: account.id)))
            """
        guard try await executor.readFirst("SELECT 1 WHERE \(visible)", as: SQLInt.self) != nil else { throw ReportError.targetNotFound }
        if let open = try await openReport(kind: kind, targetID: targetID, reporterID: account.id) { return open }
        guard try await ledger.claim("report:\(account.id)", limit: Self.perAccountPerHour, window: 3_600, at: now) else {
            throw ReportError.tooMany
        }
        let inserted = try await executor.writeFirst(
            """
            INSERT INTO reports (kind, target_id, reporter_id, reason, created_at)
            SELECT \(bind: kind.rawValue), \(bind: targetID), \(bind: account.id), \(bind: reason), \(bind: now) WHERE \(visible)
            ON CONFLICT (kind, target_id, reporter_id) WHERE resolved_at IS NULL DO NOTHING
            RETURNING \(raw: Self.columns)
            """,
            as: Report.self
        )
        if let inserted { return inserted }
        // Another request of the same person's won the race, or the item went in between.
        if let open = try await openReport(kind: kind, targetID: targetID, reporterID: account.id) { return open }
        throw ReportError.targetNotFound
    }

    /// The open queue, items with the most reporters first, then the most recently reported.
    public func queue(kind: ModeratedKind? = nil, limit: Int = 50, offset: Int = 0) async throws -> [ReportedItem] {
        let kinds = kind.map { [$0] } ?? ModeratedKind.allCases
        var items: [ReportedItem] = []
        for kind in kinds {
            items += try await executor.read(
                // The page of reported items first, then each joined once to its item (gone: NULLs).
                """
                SELECT g.kind, g.target_id, g.reporters, g.first_at, g.last_at,
                  (SELECT l.reason FROM reports l WHERE l.kind = g.kind AND l.target_id = g.target_id AND l.resolved_at IS NULL
                   ORDER BY l.created_at DESC, l.id DESC LIMIT 1) AS latest_reason,
                  \(raw: kind.excerptColumn) AS excerpt, \(raw: kind.authorColumn) AS author_id, t.hidden_at,
                  \(raw: kind.parentColumn) AS parent_id
                FROM (
                  SELECT r.kind, r.target_id, count(*) AS reporters, min(r.created_at) AS first_at, max(r.created_at) AS last_at
                  FROM reports r WHERE r.resolved_at IS NULL AND r.kind = \(bind: kind.rawValue)
                  GROUP BY r.kind, r.target_id
                  ORDER BY count(*) DESC, max(r.created_at) DESC LIMIT \(bind: limit + offset)
                ) g
                LEFT JOIN \(raw: kind.table) t ON t.id = g.target_id
                ORDER BY g.reporters DESC, g.last_at DESC
                """,
                as: ReportedItem.self
            )
        }
        let sorted = items.sorted { ($0.reporters, $0.lastReportedAt) > ($1.reporters, $1.lastReportedAt) }
        return Array(sorted.dropFirst(offset).prefix(limit))
    }

    /// How many items have open reports (the console's overview).
    public func openItemCount() async throws -> Int {
        try await executor.readFirst(
            "SELECT count(*) FROM (SELECT 1 FROM reports WHERE resolved_at IS NULL GROUP BY kind, target_id) AS open_items", as: SQLInt.self
        )?.value ?? 0
    }

    private func openReport(kind: ModeratedKind, targetID: Int, reporterID: Int) async throws -> Report? {
        try await executor.readFirst(
            """
            SELECT \(raw: Self.columns) FROM reports
            WHERE kind = \(bind: kind.rawValue) AND target_id = \(bind: targetID) AND reporter_id = \(bind: reporterID) AND resolved_at IS NULL
            """,
            as: Report.self
        )
    }

    static let columns = "id, kind, target_id, reporter_id, reason, created_at"
}

extension Report: SQLRowDecodable {
    public init(row: some SQLRow) throws {
        self.init(
            id: try row.int("id"), kind: ModeratedKind(rawValue: try row.string("kind")) ?? .post, targetID: try row.int("target_id"),
            reporterID: try row.int("reporter_id"), reason: try row.string("reason"), createdAt: try row.date("created_at")
        )
    }

    var json: ReportJSON {
        ReportJSON(
            id: id, kind: kind.rawValue, targetID: targetID, reason: reason, createdAt: UTCTimestamp.string(from: createdAt, fractionDigits: 3)
        )
    }
}

extension ReportedItem: SQLRowDecodable {
    public init(row: some SQLRow) throws {
        self.init(
            kind: ModeratedKind(rawValue: try row.string("kind")) ?? .post, targetID: try row.int("target_id"),
            reporters: try row.int("reporters"), firstReportedAt: try row.date("first_at"), lastReportedAt: try row.date("last_at"),
            latestReason: try row.optionalString("latest_reason") ?? "", excerpt: try row.optionalString("excerpt"),
            authorID: try row.optionalInt("author_id"), hidden: try !row.isNull("hidden_at"),
            parentID: try row.optionalInt("parent_id")
        )
    }
}
