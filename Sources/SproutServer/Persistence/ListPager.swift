/// A list `ListPager` can page, as the SQL pieces its statements share.
protocol PagedList: Sendable {
    /// Names the list among all others in this process (`ListPageMarks` keeps marks per key).
    var key: String { get }
    var table: String { get }
    /// The SELECT list of a page's rows.
    var columns: String { get }
    /// Which rows of `table` belong to the list.
    var filter: SQLStatement { get }
    /// The list's sort column; ties are broken by `id` in the same direction, so paging is stable.
    var column: String { get }
    var descending: Bool { get }
    /// One row, `total` and `version`: the list's length and a number every write to it moves, read by key (a
    /// counts table kept by triggers), never by counting.
    var countsQuery: SQLStatement { get }
}

/// Pages a long list by OFFSET without walking it: a page is cut from the list's kept page marks when they still
/// hold (one statement that checks the list's version beside the page; the total is the marks' own), otherwise
/// its total is read from the counts and the page cut from the nearer end (`PageCut`). Marks are read again once
/// per `ListPageMarks.rebuildInterval` at most, so a list under constant writes is paged with OFFSET.
struct ListPager: Sendable {
    let executor: any SQLExecutor
    /// A class: every copy of the pager shares them.
    let marks: ListPageMarks

    init(executor: any SQLExecutor, marks: ListPageMarks = ListPageMarks()) {
        self.executor = executor
        self.marks = marks
    }

    func page<Row: SQLRowDecodable>(of list: some PagedList, offset: Int, limit: Int, as type: Row.Type) async throws -> (rows: [Row], total: Int) {
        let key = list.key
        if let kept = marks.marks(for: key) {
            if let page = try await markedPage(list, offset: offset, limit: limit, marks: kept, as: type) { return page }
            marks.discard(key, readAt: kept.version)
        }
        if marks.claimBuild(of: key) {
            let read = try await readMarks(of: list)
            marks.store(read, for: key)
            if let page = try await markedPage(list, offset: offset, limit: limit, marks: read, as: type) { return page }
        }
        return try await offsetPage(list, offset: offset, limit: limit, as: type)
    }

    /// The page by `marks`, or nil when the list has changed since they were read (or they cannot place the page).
    /// The page's statement holds only while the list's version is the marks' own, and at that version the page
    /// has rows, so no rows means the list has changed.
    private func markedPage<Row: SQLRowDecodable>(
        _ list: some PagedList, offset: Int, limit: Int, marks kept: ListPageMarks.Marks, as type: Row.Type
    ) async throws -> (rows: [Row], total: Int)? {
        guard let start = marks.start(ofRow: offset, in: kept) else { return nil }
        guard let markID = start.markID else {
            let counts = try await executor.readFirst(list.countsQuery.prepared(), as: ListCountsRow.self)
            return counts?.version == kept.version ? ([], kept.total) : nil
        }
        let statement = start.inLongRun
            ? Self.markedPageInLongRun(list, markID: markID, version: kept.version, skip: start.skip, limit: limit)
            : Self.markedPage(list, markID: markID, version: kept.version, skip: start.skip, limit: limit)
        let rows = try await executor.read(statement.prepared(), as: type)
        return rows.isEmpty ? nil : (rows, kept.total)
    }

    /// The rows from the mark's on: `(column, id) <= (the mark's)`. SQLite seeks by that row value only on `column`
    /// when `id` is the rowid and then walks the mark's run of equal values up to the mark, which costs at most
    /// `stride` rows when the run began after the previous mark (else `markedPageInLongRun`). The page holds only
    /// while the list's version is the marks' own.
    static func markedPage(_ list: some PagedList, markID: Int, version: Int, skip: Int, limit: Int) -> SQLStatement {
        let comparison = list.descending ? "<=" : ">="
        return """
            SELECT \(raw: list.columns) FROM \(raw: list.table)
            WHERE \(list.filter)
              AND (\(raw: list.column), id) \(raw: comparison) (SELECT \(raw: list.column), id FROM \(raw: list.table) WHERE id = \(bind: markID))
              AND (SELECT version FROM (\(list.countsQuery)) AS counts) = \(bind: version)
            ORDER BY \(raw: list.order()) LIMIT \(bind: limit) OFFSET \(bind: skip)
            """
    }

    /// The same rows for a mark inside a long run of equal sort values, in two parts that each begin with one key
    /// seek: the rest of the run from the mark's id on, then the rows past the run's value; each reads at most
    /// `skip + limit` rows. A burst of creates in one second is a run of thousands, and walking it cost the
    /// growth benchmark's deep pages two thirds of their speed (13,400 req/s at 10,000 todos, 4,500 at 100,000).
    /// Not used for every mark: merging the parts costs a sort, about twice the plain statement's 30 µs.
    static func markedPageInLongRun(_ list: some PagedList, markID: Int, version: Int, skip: Int, limit: Int) -> SQLStatement {
        let (fromMark, past, direction) = list.descending ? ("<=", "<", "DESC") : (">=", ">", "ASC")
        let markValue: SQLStatement = "(SELECT \(raw: list.column) FROM \(raw: list.table) WHERE id = \(bind: markID))"
        let unchanged: SQLStatement = "(SELECT version FROM (\(list.countsQuery)) AS counts) = \(bind: version)"
        return """
            SELECT \(raw: list.columns) FROM (
              SELECT * FROM (
                SELECT 0 AS part, \(raw: list.columns) FROM \(raw: list.table)
                WHERE \(list.filter) AND \(raw: list.column) = \(markValue) AND id \(raw: fromMark) \(bind: markID) AND \(unchanged)
                ORDER BY id \(raw: direction) LIMIT \(bind: skip + limit)
              ) AS run
              UNION ALL
              SELECT * FROM (
                SELECT 1 AS part, \(raw: list.columns) FROM \(raw: list.table)
                WHERE \(list.filter) AND \(raw: list.column) \(raw: past) \(markValue) AND \(unchanged)
                ORDER BY \(raw: list.order()) LIMIT \(bind: skip + limit)
              ) AS beyond
            ) AS page
            ORDER BY part, \(raw: list.order()) LIMIT \(bind: limit) OFFSET \(bind: skip)
            """
    }

    /// The list's total and version and the id of every `stride`-th row, in one statement (one snapshot). A list
    /// can be long, so this is a slow read.
    private func readMarks(of list: some PagedList) async throws -> ListPageMarks.Marks {
        let statement: SQLStatement = """
            SELECT counts.total, counts.version, marks.id, marks.in_long_run
            FROM (\(list.countsQuery)) AS counts LEFT JOIN (
              SELECT id, position,
                CASE WHEN sort_value = lag(sort_value) OVER (ORDER BY position) THEN 1 ELSE 0 END AS in_long_run
              FROM (
                SELECT id, \(raw: list.column) AS sort_value, row_number() OVER (ORDER BY \(raw: list.order())) - 1 AS position
                FROM \(raw: list.table) WHERE \(list.filter)
              ) AS numbered WHERE position % \(bind: marks.stride) = 0
            ) AS marks ON true
            ORDER BY marks.position
            """
        let rows = try await executor.slowRead(statement, as: ListMarkRow.self)
        guard let first = rows.first else { throw SQLRowError.missingReturnedRow }
        return ListPageMarks.Marks(
            version: first.version, total: first.total, ids: rows.compactMap(\.id),
            inLongRuns: Set(rows.compactMap { $0.inLongRun ? $0.id : nil })
        )
    }

    /// The total from the counts (a key lookup), the page from the nearer end of the list's index.
    private func offsetPage<Row: SQLRowDecodable>(
        _ list: some PagedList, offset: Int, limit: Int, as type: Row.Type
    ) async throws -> (rows: [Row], total: Int) {
        let count: SQLStatement = "SELECT total FROM (\(list.countsQuery)) AS counts"
        let total = try await executor.readFirst(count.prepared(), as: SQLInt.self)?.value ?? 0
        guard let cut = PageCut(offset: offset, limit: limit, total: total) else { return ([], total) }
        let statement: SQLStatement = """
            SELECT \(raw: list.columns) FROM \(raw: list.table) WHERE \(list.filter)
            ORDER BY \(raw: list.order(descending: cut.readsDescending(list.descending))) \(cut.limitClause)
            """
        return (cut.inListOrder(try await executor.read(statement.prepared(), as: type)), total)
    }

}

extension PagedList {
    /// `column DIR, id DIR`: the list's order, or read `descending` when given; `prefix` before each name.
    func order(descending: Bool? = nil, prefix: String = "") -> String {
        let direction = descending ?? self.descending ? "DESC" : "ASC"
        return "\(prefix)\(column) \(direction), \(prefix)id \(direction)"
    }
}

/// A list's total and version.
private struct ListCountsRow: SQLRowDecodable {
    let total: Int
    let version: Int

    init(row: some SQLRow) throws {
        total = try row.int("total")
        version = try row.int("version")
    }
}

/// A page-marks row: the list's total and version, and one mark's id (none for an empty list) and whether its sort
/// value is the previous mark's.
private struct ListMarkRow: SQLRowDecodable {
    let total: Int
    let version: Int
    let id: Int?
    let inLongRun: Bool

    init(row: some SQLRow) throws {
        total = try row.int("total")
        version = try row.int("version")
        id = try row.optionalInt("id")
        inLongRun = try row.optionalInt("in_long_run") == 1
    }
}
