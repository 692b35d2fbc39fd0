import Foundation
import Logging
import Testing
@testable import SproutServer

/// SQLite's plain reads run on a connection of the calling thread's own (`SQLiteThreadReaders`), beside GRDB's
/// pool that writes: they must see every committed write, bind values as GRDB does, survive schema changes, and
/// fail clearly after the database is closed.
@Suite struct SQLiteThreadReadersTests {
    private func withSQLite<Value: Sendable>(_ body: @Sendable (SproutDatabase) async throws -> Value) async throws -> Value {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sprout-thread-readers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SproutDatabase(
            settings: .sqlite(path: directory.appendingPathComponent("sprout.sqlite").path), migrations: [],
            logger: Logger(label: "sprout-tests")
        )
        return try await database.withOpen(body)
    }

    @Test func everyReadSeesTheWritesCommittedBeforeIt() async throws {
        try await withSQLite { database in
            let executor = database.executor
            try await executor.writeAll([SQLStatement("CREATE TABLE probe (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")])
            // Many tasks, so reads come from several threads' connections, each right after its own write.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 1...200 {
                    group.addTask {
                        let written = try await executor.writeFirst(
                            SQLStatement("INSERT INTO probe (id, name) VALUES ($1, $2) RETURNING id", .int(index), .text("n\(index)")),
                            as: SQLInt.self
                        )
                        #expect(written?.value == index)
                        let read = try await executor.readFirst(SQLStatement("SELECT count(*) FROM probe WHERE id = $1", .int(index)), as: SQLInt.self)
                        #expect(read?.value == 1)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await executor.readFirst(SQLStatement("SELECT count(*) FROM probe"), as: SQLInt.self)?.value == 200)
        }
    }

    private struct Values: SQLRowDecodable {
        let text: String, int: Int, isTrue: Bool, double: Double, date: Date, bytes: [UInt8], repeated: Int, null: Bool
        init(row: some SQLRow) throws {
            text = try row.string(0)
            int = try row.int(1)
            isTrue = try row.bool(2)
            double = try row.double(3)
            date = try row.date(4)
            bytes = try row.bytes(5)
            repeated = try row.int(6)
            null = row.isNull(7)
        }
    }

    @Test func valuesAreBoundByTheirNumberWhereverTheyAppear() async throws {
        try await withSQLite { database in
            let date = Date(timeIntervalSince1970: 1_700_000_000.5)
            // $3 before $1, $2 twice: SQLite numbers named parameters by first appearance, not by name.
            let statement = SQLStatement(
                "SELECT $3, $2, $4, $5, $6, $7, $2 + $2, $1",
                .null, .int(21), .text("공지사항 ünïcode"), .bool(true), .double(2.5), .date(date), .bytes([0, 1, 255])
            )
            let values = try #require(try await database.executor.readFirst(statement, as: Values.self))
            #expect(values.text == "공지사항 ünïcode")
            #expect(values.int == 21)
            #expect(values.isTrue)
            #expect(values.double == 2.5)
            #expect(values.date == date)
            #expect(values.bytes == [0, 1, 255])
            #expect(values.repeated == 42)
            #expect(values.null)
        }
    }

    @Test func aNullWhereAValueIsRequiredIsAnErrorNotAZero() async throws {
        try await withSQLite { (database: SproutDatabase) async throws -> Void in
            await #expect(throws: SQLiteReadError.self) {
                try await database.executor.readFirst(SQLStatement("SELECT NULL"), as: SQLInt.self)
            }
        }
    }

    @Test func aStatementPreparedBeforeASchemaChangeReadsTheNewSchema() async throws {
        try await withSQLite { database in
            let executor = database.executor
            try await executor.writeAll([SQLStatement("CREATE TABLE probe (a INTEGER NOT NULL)"), SQLStatement("INSERT INTO probe VALUES (1)")])
            let select = SQLStatement("SELECT * FROM probe")
            #expect(try await executor.readFirst(select, as: SQLInt.self)?.value == 1)
            // Another connection (GRDB's writer) changes the table under the prepared statement.
            try await executor.writeAll([
                SQLStatement("DROP TABLE probe"), SQLStatement("CREATE TABLE probe (b INTEGER NOT NULL)"),
                SQLStatement("INSERT INTO probe VALUES (2)"),
            ])
            #expect(try await executor.readFirst(select, as: SQLInt.self)?.value == 2)
        }
    }

    @Test func aPlainReadCannotWrite() async throws {
        try await withSQLite { database in
            let executor = database.executor
            try await executor.writeAll([SQLStatement("CREATE TABLE probe (a INTEGER NOT NULL)"), SQLStatement("INSERT INTO probe VALUES (1)")])
            await #expect(throws: SQLiteReadError.self) {
                try await executor.read(SQLStatement("DELETE FROM probe RETURNING a"), as: SQLInt.self)
            }
            #expect(try await executor.readFirst(SQLStatement("SELECT count(*) FROM probe"), as: SQLInt.self)?.value == 1)
        }
    }

    @Test func manyDistinctStatementsAllAnswer() async throws {
        try await withSQLite { database in
            // More distinct SQL texts than a connection keeps prepared: the rest are prepared for one use.
            for number in 0..<300 {
                let value = try await database.executor.readFirst(SQLStatement("SELECT \(number) + $1", .int(1)), as: SQLInt.self)
                #expect(value?.value == number + 1)
            }
        }
    }

    @Test func readsFailClearlyOnceTheDatabaseIsClosed() async throws {
        let executor = try await withSQLite { (database: SproutDatabase) async throws -> any SQLExecutor in
            let one = try await database.executor.readFirst(SQLStatement("SELECT 1"), as: SQLInt.self)
            #expect(one?.value == 1)
            return database.executor
        }
        await #expect(throws: SQLiteReadError.self) {
            try await executor.readFirst(SQLStatement("SELECT 1"), as: SQLInt.self)
        }
    }
}
