/// An index for `LIKE '%text%'` over one folded text column of one table: SQLite FTS5 with the trigram tokenizer
/// (an external-content table kept right by triggers), PostgreSQL `pg_trgm` (a GIN index). The index changes in
/// the same transaction as the row. Any table can have one (the Board's posts and the Market's products do): add
/// `migrationStatements` to a migration and `condition` to the queries.
///
/// Queries shorter than three code points go around the index, as a plain LIKE over the table: trigrams
/// cannot narrow them, and SQLite 3.40.1's trigram table answers a two-Hangul-character LIKE or MATCH
/// with no rows at all (a bug; fixed in later SQLite versions).
public struct SubstringSearchIndex: Sendable {
    public let table: String
    public let column: String

    public init(table: String, column: String) {
        self.table = table
        self.column = column
    }

    /// The FTS5 table's name on SQLite, the GIN index's on PostgreSQL.
    var name: String { "\(table)_\(column)_search" }

    /// The shortest query the index can answer.
    static let minimumIndexedLength = 3

    /// Creates the index and fills it from the rows already in the table.
    func migrationStatements(for dialect: SQLDialect) -> [String] {
        switch dialect {
        case .sqlite:
            let tokenChange = "INSERT INTO \(name) (\(name), rowid, \(column)) VALUES ('delete', OLD.rowid, OLD.\(column));"
            let tokenAdd = "INSERT INTO \(name) (rowid, \(column)) VALUES (NEW.rowid, NEW.\(column));"
            return [
                "CREATE VIRTUAL TABLE \(name) USING fts5(\(column), content='\(table)', content_rowid='rowid', tokenize='trigram')",
                "INSERT INTO \(name) (\(name)) VALUES ('rebuild')",
                "CREATE TRIGGER \(name)_insert AFTER INSERT ON \(table) BEGIN \(tokenAdd) END",
                "CREATE TRIGGER \(name)_delete AFTER DELETE ON \(table) BEGIN \(tokenChange) END",
                """
                CREATE TRIGGER \(name)_update AFTER UPDATE OF \(column) ON \(table)
                WHEN OLD.\(column) IS NOT NEW.\(column) BEGIN \(tokenChange) \(tokenAdd) END
                """,
            ]
        case .postgres:
            // pg_trgm is a trusted extension: a database owner may create it. It goes to `public`, not to the
            // session's first schema, so dropping one (test) schema never drops it from under the others; the
            // operator class is then named with the schema it really lives in.
            return [
                "CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public",
                """
                DO $$ BEGIN
                  EXECUTE format('CREATE INDEX \(name) ON \(table) USING gin (\(column) %I.gin_trgm_ops)',
                    (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'));
                END $$
                """,
            ]
        }
    }

    /// PostgreSQL's GIN index gathers new rows in a pending list (4 MB by default) that every search reads in full
    /// until a vacuum merges it: after `sprout seed --board-posts 100000`, 491 pending pages made a board search for
    /// a rare word take 15–28 ms, 0.06–0.9 ms once merged. A 128 kB limit merges it as inserts go (they pay for it in
    /// small steps), so a search never reads more than that. The statements set the limit and merge what is pending.
    /// Every index made with `migrationStatements` needs them, in a migration step after it.
    func pendingListStatements(for dialect: SQLDialect) -> [String] {
        guard dialect == .postgres else { return [] }
        return [
            "ALTER INDEX \(name) SET (gin_pending_list_limit = 128)",
            "SELECT gin_clean_pending_list('\(name)'::regclass)",
        ]
    }

    /// `column LIKE '%text%'` (wildcards in `text` escaped), narrowed through the index by `trigrams` (from
    /// `narrowingTrigrams`; none: the LIKE alone, which PostgreSQL's planner answers from its pg_trgm index).
    /// `text` must already be folded as the column is. The LIKE is the one definition of a match on both
    /// databases. On SQLite the FTS5 table first picks the rows that hold every trigram given (a superset),
    /// because 3.40.1's FTS5 ignores an ESCAPE clause (measured: `%50\% off\_%` matched all 20,002 rows, by a
    /// full scan). Trigrams joined by AND, not the text as one phrase: for a 255-character query over 5,000
    /// crafted titles the phrase took 236 ms (one position-list walk per repeated trigram), the AND 0.9 ms, a
    /// plain LIKE scan 802 ms.
    func condition(containing text: String, narrowedBy trigrams: [String]) -> SQLStatement {
        let like = scanCondition(containing: text)
        guard !trigrams.isEmpty else { return like }
        let query = trigrams.map(\.doubleQuoted).joined(separator: " AND ")
        return "rowid IN (SELECT rowid FROM \(raw: name) WHERE \(raw: name) MATCH \(bind: query)) AND \(like)"
    }

    /// The trigrams to ask the index for, for `condition(containing:narrowedBy:)`. On SQLite, the
    /// rarest few of the text's (`rarest(_:counts:)`), by counts remembered per database (`TrigramDocumentCounts`);
    /// those not remembered are counted first, all in one read. None for a text under three code points (the
    /// index cannot narrow it, and SQLite 3.40.1 answers a two-Hangul-character MATCH wrongly) or on PostgreSQL.
    func narrowingTrigrams(of text: String, executor: any SQLExecutor) async throws -> [String] {
        guard let remembered = executor.trigramCounts else { return [] }  // only SQLite's executor counts
        let trigrams = Self.trigrams(of: text)
        guard !trigrams.isEmpty else { return [] }
        var counts = remembered.counts(of: trigrams, in: name)
        let unknown = trigrams.filter { counts[$0] == nil }
        if !unknown.isEmpty {
            let statement = SQLStatement.joined(unknown.indices.map { position in
                "SELECT \(raw: String(position)) AS position, count(*) AS hits FROM \(raw: name) WHERE \(raw: name) MATCH \(bind: unknown[position].doubleQuoted)"
            }, separator: " UNION ALL ")
            var counted: [String: Int] = [:]
            for row in try await executor.slowRead(statement, as: TrigramCountRow.self) where unknown.indices.contains(row.position) {
                counted[unknown[row.position]] = row.hits
            }
            remembered.remember(counted, in: name)
            counts.merge(counted) { _, new in new }
        }
        return Self.rarest(trigrams, counts: counts)
    }

    /// At most this many trigrams narrow a search: past the rarest few, another only costs a posting-list walk.
    static let maximumNarrowingTrigrams = 3

    /// The rarest trigram, then the next rarest while they are within `8×` its count, at most
    /// `maximumNarrowingTrigrams`; ties keep the text's order. A trigram in no row is enough on its own.
    static func rarest(_ trigrams: [String], counts: [String: Int]) -> [String] {
        let ordered = trigrams.enumerated()
            .sorted { ((counts[$0.element] ?? .max), $0.offset) < ((counts[$1.element] ?? .max), $1.offset) }
            .map(\.element)
        guard let first = ordered.first else { return [] }
        let fewest = counts[first] ?? .max
        guard fewest > 0 else { return [first] }
        return Array(ordered.prefix(maximumNarrowingTrigrams).prefix { (counts[$0] ?? .max) / 8 <= fewest })
    }

    /// The match alone, without the index: for a scan in key order that stops at a page's end, which beats the
    /// index when most rows match (a common word: the index would hand over every match first).
    func scanCondition(containing text: String) -> SQLStatement {
        "\(raw: column) LIKE \(bind: text.likeContainsPattern) ESCAPE '\\'"
    }

    /// At most this many of a text's trigrams are looked at (counted, then the rarest asked for): a few already
    /// narrow the rows to a handful, and each more costs one more posting-list walk when it is counted.
    static let maximumQueryTrigrams = 16

    /// The text's distinct three-code-point pieces, as FTS5's trigram tokenizer cuts them, evenly chosen across
    /// the text when there are more than `maximumQueryTrigrams`.
    static func trigrams(of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 3 else { return [] }
        var seen = Set<String>()
        var distinct: [String] = []
        for start in 0...(scalars.count - 3) {
            var piece = String.UnicodeScalarView()
            piece.append(contentsOf: scalars[start..<(start + 3)])
            let trigram = String(piece)
            if seen.insert(trigram).inserted { distinct.append(trigram) }
        }
        guard distinct.count > maximumQueryTrigrams else { return distinct }
        let step = Double(distinct.count - 1) / Double(maximumQueryTrigrams - 1)
        return (0..<maximumQueryTrigrams).map { distinct[Int((Double($0) * step).rounded())] }
    }
}

/// How many rows hold the trigram at `position` of a search's list.
private struct TrigramCountRow: SQLRowDecodable {
    let position: Int
    let hits: Int

    init(row: some SQLRow) throws {
        position = try row.int("position")
        hits = try row.int("hits")
    }
}
