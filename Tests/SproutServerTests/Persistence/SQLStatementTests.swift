import Foundation
import Testing
@testable import SproutServer

/// Statements are written with their values in place (`\(bind:)`), and pieces written apart are numbered after
/// what comes before them, so no statement depends on text and values being appended in step (issue 26, point 1).
@Suite struct SQLStatementTests {
    @Test func valuesBecomePlaceholdersInTheOrderWritten() {
        let id = 7, title = "공지", done: Bool? = nil
        let statement: SQLStatement = "UPDATE t SET title = \(bind: title), done = \(bind: done) WHERE id = \(bind: id)"
        #expect(statement.sql == "UPDATE t SET title = $1, done = $2 WHERE id = $3")
        #expect(statement.binds == [.text("공지"), .null, .int(7)])
    }

    @Test func insertsOfOneShapeJoinIntoOneInsertOfAllTheirRowsInOrder() {
        let rows = [("a", 1), ("b", nil), ("c", 3)].map { name, owner in
            SQLStatement.insertingOneRow("INSERT INTO t (name, owner) VALUES ", values: "(\(bind: name), \(bind: owner))", " RETURNING id")
        }
        #expect(rows[1].sql == "INSERT INTO t (name, owner) VALUES ($1, $2) RETURNING id")
        let shape = try! #require(rows[0].insertShape)
        #expect(rows.allSatisfy { $0.insertShape == shape })
        let joined = SQLStatement.insertingRows(rows, shape: shape)
        #expect(joined.sql == "INSERT INTO t (name, owner) VALUES ($1, $2), ($3, $4), ($5, $6) RETURNING id")
        #expect(joined.binds == [.text("a"), .int(1), .text("b"), .null, .text("c"), .int(3)])
        #expect(!joined.isPrepared && joined.insertShape == nil)
    }

    @Test func aPieceIsNumberedAfterThePlaceholdersBeforeIt() {
        let owner: SQLStatement = "owner_id = \(bind: 3) AND is_done = \(bind: true)"
        let statement: SQLStatement = "SELECT id FROM todos WHERE id > \(bind: 10) AND \(owner) LIMIT \(bind: 20)"
        #expect(statement.sql == "SELECT id FROM todos WHERE id > $1 AND owner_id = $2 AND is_done = $3 LIMIT $4")
        #expect(statement.binds == [.int(10), .int(3), .bool(true), .int(20)])
    }

    @Test func appendingAndJoiningNumberEachPieceInTurn() {
        var statement: SQLStatement = "SELECT 1 WHERE a = \(bind: 1)"
        statement.append(" AND b IN (\(list: [2, 3]))")
        statement.append(" AND (\(SQLStatement.joined(["c = \(bind: 4)", "d = \(bind: 5)", "e"], separator: " OR ")))")
        #expect(statement.sql == "SELECT 1 WHERE a = $1 AND b IN ($2, $3) AND (c = $4 OR d = $5 OR e)")
        #expect(statement.binds == [.int(1), .int(2), .int(3), .int(4), .int(5)])
    }

    @Test func dollarSignsInQuotedTextAndIdentifiersAreLeftAlone() {
        let piece: SQLStatement = "x = \(bind: 1) AND y = '$1 costs $2' AND \"col$1\" = \(bind: 2)"
        let statement: SQLStatement = "SELECT \(bind: 0), \(piece)"
        #expect(statement.sql == "SELECT $1, x = $2 AND y = '$1 costs $2' AND \"col$1\" = $3")
    }

    @Test func rawTextIsNotAValue() {
        let column = "created_at"
        let statement: SQLStatement = "ORDER BY \(raw: column) DESC LIMIT \(bind: 5)"
        #expect(statement.sql == "ORDER BY created_at DESC LIMIT $1")
        #expect(statement.binds == [.int(5)])
    }

    /// Rows are read by the names the SELECT gives: reordering the list cannot misread a column.
    @Test func rowsAreReadByColumnNameOnEitherDatabase() async throws {
        try await withTestApp { _, database in
            let forwards: SQLStatement = "SELECT \(bind: 1) AS first_value, \(bind: "two") AS second_value"
            let backwards: SQLStatement = "SELECT \(bind: "two") AS second_value, \(bind: 1) AS first_value"
            for statement in [forwards, backwards] {
                let read = try #require(try await database.executor.readFirst(statement, as: NamedPair.self))
                #expect(read.first == 1)
                #expect(read.second == "two")
                let written = try #require(try await database.executor.writeFirst(statement, as: NamedPair.self))
                #expect(written.first == 1)
            }
        }
    }

    @Test func aColumnTheSelectDoesNotNameIsAClearError() async throws {
        try await withTestApp { _, database in
            let error = await #expect(throws: SQLColumnError.self) {
                try await database.executor.readFirst("SELECT 1 AS first_value", as: NamedPair.self)
            }
            #expect(error?.description == "the statement's result has no column named second_value")
        }
    }

    private struct NamedPair: SQLRowDecodable {
        let first: Int
        let second: String
        init(row: some SQLRow) throws {
            first = try row.int("first_value")
            second = try row.string("second_value")
        }
    }
}

/// Column names are found by comparing them in order up to `linearLimit` columns and through a dictionary past
/// it; either way the first of two columns with one name wins (as in GRDB) and a missing name is an error.
@Suite struct SQLColumnNamesTests {
    @Test(arguments: [3, SQLColumnNames.linearLimit + 5])
    func theFirstOfTwoColumnsWithOneNameWinsAndAMissingNameThrows(width: Int) throws {
        let names = (0..<width).map { "column_\($0)" } + ["id", "column_1"]
        let columns = SQLColumnNames(names)
        #expect(try columns.index(of: "column_1") == 1)
        #expect(try columns.index(of: "id") == width)
        #expect(try columns.index(of: "column_\(width - 1)") == width - 1)
        #expect(throws: SQLColumnError.self) { try columns.index(of: "created_at") }
    }
}
