import Foundation

/// The two SQL dialects Sprout speaks. Most SQL is written once for both (`$1` placeholders, `RETURNING`,
/// `ON CONFLICT`, `LIMIT … OFFSET`); a shared piece asks for the dialect only where the databases really differ.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres
}

/// A value bound to a placeholder. Dates are stored as the databases' own kinds: `timestamptz` on PostgreSQL,
/// seconds since 1970 as REAL on SQLite (what the Fluent-made databases hold, so they are adopted unchanged).
public enum SQLValue: Sendable, Equatable {
    case null
    case int(Int)
    case text(String)
    case bool(Bool)
    case date(Date)
    /// `REAL` on SQLite, `double precision` on PostgreSQL (market prices).
    case double(Double)
    /// `BLOB` on SQLite, `bytea` on PostgreSQL (images kept in the database).
    case bytes([UInt8])
}

/// One SQL statement and its values, written with the values in place, as postgres-nio's `PostgresQuery` is:
///
///     let statement: SQLStatement = "SELECT \(raw: columns) FROM todos WHERE id = \(bind: id)"
///
/// Each `\(bind:)` becomes the next placeholder (`$1`, `$2`, … on both databases; SQLite binds them by name), so
/// no statement depends on text and values being appended in step. Pieces written apart are joined with
/// `\(fragment)` or `append(_:)`, which number the piece's placeholders after the statement's own.
public struct SQLStatement: Sendable {
    public private(set) var sql: String
    public private(set) var binds: [SQLValue]
    /// Kept prepared on each PostgreSQL connection after its first use, so later calls skip parsing and planning.
    /// Only for hot statements whose best plan does not depend on the values (a lookup by key, a page of a
    /// list): PostgreSQL may settle on one generic plan for them. SQLite keeps every statement prepared anyway.
    public var isPrepared = false
    /// Set for an INSERT of one row that a group commit may join with others (`insertingOneRow`).
    public var insertShape: SQLInsertShape?

    /// SQL whose placeholders are already numbered (`$1` is `binds[0]`): the executors' own statements, tests.
    public init(sql: String, binds: [SQLValue] = []) {
        self.sql = sql
        self.binds = binds
    }

    /// The same statement, kept prepared (see `isPrepared`).
    public func prepared() -> SQLStatement {
        var statement = self
        statement.isPrepared = true
        return statement
    }

    /// Adds `piece` at the end, its placeholders numbered after this statement's.
    public mutating func append(_ piece: SQLStatement) {
        // A piece without values has no placeholders of its own to move (`owner_id IS NULL`, a keyword).
        guard !piece.binds.isEmpty else {
            sql += piece.sql
            return
        }
        sql += Self.renumbered(piece.sql, after: binds.count)
        binds += piece.binds
    }

    /// `pieces` joined by `separator` (" AND ", ", "), numbered in order. Empty when there are none.
    public static func joined(_ pieces: [SQLStatement], separator: String) -> SQLStatement {
        var joined = SQLStatement(sql: "")
        for (index, piece) in pieces.enumerated() {
            if index > 0 { joined.sql += separator }
            joined.append(piece)
        }
        return joined
    }

    /// `sql` with each `$n` outside quotes made `$(n + offset)`. Bytes, not characters: every byte it looks for is
    /// ASCII, and no other UTF-8 byte can be mistaken for one.
    static func renumbered(_ sql: String, after offset: Int) -> String {
        let dollar = UInt8(ascii: "$"), zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")
        guard offset > 0, sql.utf8.contains(dollar) else { return sql }
        let bytes = Array(sql.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 8)
        var quote: UInt8?
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
            } else if byte == dollar, index < bytes.count, (zero...nine).contains(bytes[index]) {
                var number = 0
                while index < bytes.count, (zero...nine).contains(bytes[index]) {
                    number = number * 10 + Int(bytes[index] - zero)
                    index += 1
                }
                result.append(dollar)
                result += String(number + offset).utf8
                continue
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension SQLStatement: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: Interpolation) {
        self = stringInterpolation.statement
    }

    /// What `"…\(…)…"` appends to the statement, piece by piece.
    public struct Interpolation: StringInterpolationProtocol {
        var statement = SQLStatement(sql: "")

        public init(literalCapacity: Int, interpolationCount: Int) {
            statement.sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            statement.sql += literal
        }

        /// A value, as the next placeholder.
        public mutating func appendInterpolation(bind value: some SQLBindable) {
            statement.binds.append(value.sqlValue)
            statement.sql += "$\(statement.binds.count)"
        }

        /// A value or NULL, as the next placeholder. (Its own overload, so that an optional is bound, not
        /// described: the compiler warns about optionals in interpolations without one.)
        public mutating func appendInterpolation<Value: SQLBindable>(bind value: Value?) {
            appendInterpolation(bind: value.sqlValue)
        }

        /// Values as placeholders separated by commas, for `IN (…)`. Callers keep the list non-empty: PostgreSQL
        /// refuses `IN ()`.
        public mutating func appendInterpolation<Values: Sequence>(list values: Values) where Values.Element: SQLBindable {
            var first = true
            for value in values {
                if !first { statement.sql += ", " }
                first = false
                appendInterpolation(bind: value)
            }
        }

        /// A piece of SQL written apart, its placeholders numbered after the ones before it.
        public mutating func appendInterpolation(_ piece: SQLStatement) {
            statement.append(piece)
        }

        /// Text put into the SQL as it is: names, keywords and column lists chosen by the code, never a value
        /// from a request.
        public mutating func appendInterpolation(raw text: String) {
            statement.sql += text
        }
    }
}

/// A Swift value that binds as one `SQLValue`.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}

extension Int: SQLBindable {
    public var sqlValue: SQLValue { .int(self) }
}

extension String: SQLBindable {
    public var sqlValue: SQLValue { .text(self) }
}

extension Substring: SQLBindable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Bool: SQLBindable {
    public var sqlValue: SQLValue { .bool(self) }
}

extension Date: SQLBindable {
    public var sqlValue: SQLValue { .date(self) }
}

extension Double: SQLBindable {
    public var sqlValue: SQLValue { .double(self) }
}

extension [UInt8]: SQLBindable {
    public var sqlValue: SQLValue { .bytes(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension String {
    /// The text as a `LIKE '%…%' ESCAPE '\'` pattern that matches it literally: `%`, `_` and `\` are escaped.
    /// By Unicode scalars, as the database reads it: a `%` followed by a combining mark is one `Character`.
    var likeContainsPattern: String {
        var escaped = String.UnicodeScalarView()
        escaped.append("%")
        for scalar in unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { escaped.append("\\") }
            escaped.append(scalar)
        }
        escaped.append("%")
        return String(escaped)
    }

    /// The text between double quotes, each quote in it doubled: an SQL identifier, or an FTS5 string. By Unicode
    /// scalars: a quote followed by a combining mark (an emoji skin tone) is one `Character`, which a
    /// `Character`-wise replace leaves alone.
    var doubleQuoted: String {
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in unicodeScalars {
            if scalar == "\"" { quoted.append("\"") }
            quoted.append(scalar)
        }
        quoted.append("\"")
        return String(quoted)
    }
}
