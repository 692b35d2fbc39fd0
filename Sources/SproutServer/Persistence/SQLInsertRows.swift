/// An INSERT of one row that PostgreSQL's group commit may join with others of the same shape into one multi-row
/// INSERT (`PostgresWriteBatcher`): `head` (`INSERT INTO t (a, b) VALUES `), the row's values (`($1, $2)`) and
/// `tail` (` RETURNING …`), neither of which binds a value. PostgreSQL returns a multi-row INSERT's rows in the
/// order of its VALUES (Django's `bulk_create` relies on the same), so each write gets its own row back.
public struct SQLInsertShape: Sendable, Hashable {
    let head: String
    let row: String
    let tail: String
}

extension SQLStatement {
    /// `head`, one row of values, `tail`: a statement like any other, which a group commit may join with the
    /// inserts of the same shape beside it.
    static func insertingOneRow(_ head: String, values: SQLStatement, _ tail: String) -> SQLStatement {
        var statement = SQLStatement(sql: head + values.sql + tail, binds: values.binds)
        statement.insertShape = SQLInsertShape(head: head, row: values.sql, tail: tail)
        return statement
    }

    /// One INSERT of every row of `rows`, which share `shape` (its placeholders renumbered row after row), not
    /// kept prepared: with NULLs among the values its parameter types vary from batch to batch.
    static func insertingRows(_ rows: [SQLStatement], shape: SQLInsertShape) -> SQLStatement {
        var merged = SQLStatement(sql: shape.head)
        for (index, row) in rows.enumerated() {
            if index > 0 { merged.append(SQLStatement(sql: ", ")) }
            merged.append(SQLStatement(sql: shape.row, binds: row.binds))
        }
        merged.append(SQLStatement(sql: shape.tail))
        return merged
    }
}
