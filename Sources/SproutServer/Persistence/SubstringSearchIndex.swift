/// An index for `LIKE '%text%'` over one folded text column of one table: SQLite FTS5 with the trigram tokenizer
/// (an external-content table kept right by triggers), PostgreSQL `pg_trgm` (a GIN index). The index changes in
/// the same transaction as the row. Any table can have one (the Board's posts will): add
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

    /// `column LIKE '%text%'` (wildcards in `text` escaped), narrowed through the index where it helps. `text`
    /// must already be folded as the column is. The LIKE is the one definition of a match on both databases;
    /// on SQLite an FTS5 phrase query picks the candidate rows first, because 3.40.1's FTS5 ignores an
    /// ESCAPE clause (measured: `%50\% off\_%` matched all 20,002 rows, by a full scan).
    func condition(containing text: String, dialect: SQLDialect, statement: inout SQLStatement) -> String {
        let like = "\(column) LIKE \(statement.bind(.text(text.likeContainsPattern))) ESCAPE '\\'"
        guard dialect == .sqlite, text.unicodeScalars.count >= Self.minimumIndexedLength else { return like }
        let phrase = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        return "rowid IN (SELECT rowid FROM \(name) WHERE \(name) MATCH \(statement.bind(.text(phrase)))) AND \(like)"
    }
}
