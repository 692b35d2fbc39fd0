/// A page of a list whose total is known, read from whichever end of the list is nearer. OFFSET walks every row it
/// skips, so the last pages of a long list are read backwards from the end (and put back in order), and a page
/// past the end is not read at all.
///
/// Todos (through `ListPager`), the Market and the Board cut their list pages with it; Community's Strapi lists
/// carry no total, so they take only `limitClause(limit:offset:dialect:)`.
struct PageCut: Sendable, Equatable {
    /// Rows to read.
    let limit: Int
    /// Rows to skip, counted from the end the rows are read from.
    let offset: Int
    /// The rows are read in the list's reverse order; `inListOrder` turns them back.
    let fromTheEnd: Bool

    /// The cut of rows `offset ..< offset + limit` (0-based) of `total`; nil when no row of it exists.
    init?(offset: Int, limit: Int, total: Int) {
        guard offset < total, limit > 0 else { return nil }
        let end = min(offset + limit, total)
        fromTheEnd = total - end < offset
        self.limit = end - offset
        self.offset = fromTheEnd ? total - end : offset
    }

    /// Whether to read a list ordered `descending` in descending order, from the chosen end.
    func readsDescending(_ descending: Bool) -> Bool {
        descending != fromTheEnd
    }

    /// `ASC` or `DESC`: `readsDescending` as SQL.
    func direction(descending: Bool) -> String {
        readsDescending(descending) ? "DESC" : "ASC"
    }

    var limitClause: SQLStatement { "LIMIT \(bind: limit) OFFSET \(bind: offset)" }

    /// Rows as read, in the list's own order.
    func inListOrder<Row>(_ rows: [Row]) -> [Row] {
        fromTheEnd ? rows.reversed() : rows
    }

    /// `LIMIT … OFFSET …`, with no limit at all when `limit` is nil. SQLite needs a LIMIT before an OFFSET (-1 is
    /// its "no limit"); PostgreSQL says LIMIT ALL.
    static func limitClause(limit: Int?, offset: Int, dialect: SQLDialect) -> SQLStatement {
        guard let limit else { return "LIMIT \(raw: dialect == .sqlite ? "-1" : "ALL") OFFSET \(bind: offset)" }
        return "LIMIT \(bind: limit) OFFSET \(bind: offset)"
    }
}
