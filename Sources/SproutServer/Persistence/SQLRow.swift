import Foundation

/// One result row. Types read their columns by the names the SELECT gives them (`row.int("id")`), so a column
/// list and the code that reads it cannot fall out of step; each executor wraps its driver's row in one of these,
/// so a type decodes itself once for both databases. The positional reads are what the executors implement.
public protocol SQLRow {
    /// Where the column named `name` (as the SELECT names it, lower case) sits in this row.
    func index(of name: String) throws -> Int
    func isNull(_ index: Int) -> Bool
    func int(_ index: Int) throws -> Int
    func string(_ index: Int) throws -> String
    func bool(_ index: Int) throws -> Bool
    func date(_ index: Int) throws -> Date
    func double(_ index: Int) throws -> Double
    func bytes(_ index: Int) throws -> [UInt8]
}

extension SQLRow {
    public func isNull(_ column: String) throws -> Bool { isNull(try index(of: column)) }
    public func int(_ column: String) throws -> Int { try int(try index(of: column)) }
    public func string(_ column: String) throws -> String { try string(try index(of: column)) }
    public func bool(_ column: String) throws -> Bool { try bool(try index(of: column)) }
    public func date(_ column: String) throws -> Date { try date(try index(of: column)) }
    public func double(_ column: String) throws -> Double { try double(try index(of: column)) }
    public func bytes(_ column: String) throws -> [UInt8] { try bytes(try index(of: column)) }

    /// The column's value, or nil when it is NULL.
    public func optionalInt(_ column: String) throws -> Int? {
        let index = try index(of: column)
        return isNull(index) ? nil : try int(index)
    }

    public func optionalString(_ column: String) throws -> String? {
        let index = try index(of: column)
        return isNull(index) ? nil : try string(index)
    }

    public func optionalDouble(_ column: String) throws -> Double? {
        let index = try index(of: column)
        return isNull(index) ? nil : try double(index)
    }

    public func optionalDate(_ column: String) throws -> Date? {
        let index = try index(of: column)
        return isNull(index) ? nil : try date(index)
    }
}

/// The column names of one result, gathered once per statement (not per row) by the executors.
///
/// Looked up by comparing names in order, not by hashing: a row decoder asks once per column per row (a feed page,
/// 20 posts and their 200 comments, about 1,400 times), and hashing each name was 6 % of that page's CPU (`perf`),
/// where comparing a few short names (stored inline, compared as whole words) costs next to nothing. Results with
/// more columns than `linearLimit` keep a dictionary.
public struct SQLColumnNames: Sendable {
    private let names: [String]
    private let indexes: [String: Int]?

    static let linearLimit = 24

    /// The first of two columns with one name wins, as in GRDB.
    public init(_ names: some Sequence<String>) {
        let names = Array(names)
        self.names = names
        if names.count > Self.linearLimit {
            var indexes: [String: Int] = [:]
            for (index, name) in names.enumerated() where indexes[name] == nil {
                indexes[name] = index
            }
            self.indexes = indexes
        } else {
            indexes = nil
        }
    }

    public func index(of name: String) throws -> Int {
        if let indexes {
            guard let index = indexes[name] else { throw SQLColumnError.noSuchColumn(name) }
            return index
        }
        guard let index = names.firstIndex(of: name) else { throw SQLColumnError.noSuchColumn(name) }
        return index
    }
}

public enum SQLColumnError: Error, CustomStringConvertible {
    case noSuchColumn(String)

    public var description: String {
        switch self {
        case .noSuchColumn(let name): "the statement's result has no column named \(name)"
        }
    }
}

/// A value made straight from a result row (no intermediate dictionaries or models).
public protocol SQLRowDecodable: Sendable {
    init(row: some SQLRow) throws
}

/// A statement's only column, whatever its name: `SELECT 1`, `count(*)`.
struct SQLInt: SQLRowDecodable {
    let value: Int
    init(row: some SQLRow) throws { value = try row.int(0) }
}

/// A statement's only column, as text.
struct SQLTextValue: SQLRowDecodable {
    let value: String
    init(row: some SQLRow) throws { value = try row.string(0) }
}

enum SQLRowError: Error {
    case missingReturnedRow
}

/// The SELECT list of some of a joined table's columns, each named after `prefix` (`a.id AS author_id, …`), so
/// that two tables' `id`s or `created_at`s in one row keep names of their own. Its type reads them back with the
/// same prefix.
func prefixedColumns(_ columns: [String], of table: String, as prefix: String) -> String {
    columns.map { "\(table).\($0) AS \(prefix)\($0)" }.joined(separator: ", ")
}
