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

/// One SQL statement and its values. Placeholders are `$1`, `$2`, … on both databases; SQLite binds them by
/// name, so a number may appear more than once and in any order.
public struct SQLStatement: Sendable {
    public var sql: String
    public var binds: [SQLValue]
    /// Kept prepared on each PostgreSQL connection after its first use, so later calls skip parsing and planning.
    /// Only for hot statements whose best plan does not depend on the values (a lookup by key, a page of a
    /// list): PostgreSQL may settle on one generic plan for them. SQLite keeps every statement prepared anyway.
    public var isPrepared = false

    public init(_ sql: String, _ binds: SQLValue...) {
        self.sql = sql
        self.binds = binds
    }

    public init(sql: String, binds: [SQLValue]) {
        self.sql = sql
        self.binds = binds
    }

    /// The same statement, kept prepared (see `isPrepared`).
    public func prepared() -> SQLStatement {
        var statement = self
        statement.isPrepared = true
        return statement
    }

    /// Adds a value and returns its placeholder, for SQL assembled in parts.
    public mutating func bind(_ value: SQLValue) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Adds the values and returns their placeholders, comma-separated, for `IN (…)`. Callers keep the list
    /// non-empty: PostgreSQL refuses `IN ()`.
    public mutating func bindList(_ values: some Sequence<SQLValue>) -> String {
        values.map { bind($0) }.joined(separator: ", ")
    }
}

/// One result row, read by column position. Each executor wraps its driver's row in one of these, so a type
/// decodes itself once for both databases.
public protocol SQLRow {
    func isNull(_ index: Int) -> Bool
    func int(_ index: Int) throws -> Int
    func string(_ index: Int) throws -> String
    func bool(_ index: Int) throws -> Bool
    func date(_ index: Int) throws -> Date
    func double(_ index: Int) throws -> Double
    func bytes(_ index: Int) throws -> [UInt8]
}

/// A value made straight from a result row (no intermediate dictionaries or models).
public protocol SQLRowDecodable: Sendable {
    init(row: some SQLRow) throws
}

/// A single integer column: `SELECT 1`, `count(*)`.
struct SQLInt: SQLRowDecodable {
    let value: Int
    init(row: some SQLRow) throws { value = try row.int(0) }
}

/// Two integer columns: a position and a count.
struct SQLIntPair: SQLRowDecodable {
    let first: Int
    let second: Int
    init(row: some SQLRow) throws {
        first = try row.int(0)
        second = try row.int(1)
    }
}

/// A single text column.
struct SQLTextValue: SQLRowDecodable {
    let value: String
    init(row: some SQLRow) throws { value = try row.string(0) }
}

extension String {
    /// The text as a `LIKE '%…%' ESCAPE '\'` pattern that matches it literally: `%`, `_` and `\` are escaped.
    var likeContainsPattern: String {
        var escaped = "%"
        for character in self {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        escaped.append("%")
        return escaped
    }
}
