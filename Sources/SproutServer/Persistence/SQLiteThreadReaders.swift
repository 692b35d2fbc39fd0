import Foundation
import GRDBSQLite
import NIOConcurrencyHelpers
import NIOPosix

/// SQLite's plain reads, each on a read connection of the calling thread's own, through SQLite's C API.
///
/// GRDB's `unsafeRead` takes a reader from its pool (a semaphore and a lock), runs the closure through the
/// reader's dispatch queue (`DispatchQueue.sync`) and asks SQLite for the schema version before the statement:
/// a show under wrk spent more CPU in that machinery than in libsqlite3. A thread's own connection needs none of
/// it: nothing else uses it, so it never waits, and its statements stay prepared. It is the libsqlite3 GRDB
/// links (one SQLite library per process: their POSIX locks see each other), opened on the same file, read-only
/// (`query_only`). Writes, slow reads and migrations stay on GRDB's pool.
///
/// Threads are few (the event loops run every task). Each thread keeps its connections in one process-wide
/// thread-local (a thread-local per database would take a pthread key per database, and the test suite opens
/// hundreds); a closed database's entries are dropped the next time that thread opens a connection.
final class SQLiteThreadReaders: Sendable {
    private let path: String
    /// Tells this database's connections apart from other databases' in a thread's table (an `ObjectIdentifier`
    /// could be reused once a closed database is freed).
    private let id = SQLiteThreadReaders.nextID.withLockedValue { next in
        defer { next += 1 }
        return next
    }
    private let opened = NIOLockedValueBox(Opened())

    private static let nextID = NIOLockedValueBox(0)
    private static let perThread = ThreadSpecificVariable<ThreadConnections>()

    private struct Opened {
        var closed = false
        var connections: [WeakConnection] = []
    }

    private struct WeakConnection {
        weak var connection: SQLiteReadConnection?
    }

    /// One thread's connections, by database. Only its own thread touches it.
    private final class ThreadConnections: @unchecked Sendable {
        var byDatabase: [Int: SQLiteReadConnection] = [:]
    }

    init(path: String) {
        self.path = path
    }

    func read<Row: SQLRowDecodable>(_ statement: SQLStatement) throws -> [Row] {
        try connection().read(statement)
    }

    /// Closes every connection; reads after this fail.
    func close() {
        let connections = opened.withLockedValue { opened in
            opened.closed = true
            defer { opened.connections = [] }
            return opened.connections.compactMap(\.connection)
        }
        for connection in connections { connection.close() }
    }

    private func connection() throws -> SQLiteReadConnection {
        let table: ThreadConnections
        if let existing = Self.perThread.currentValue {
            if let connection = existing.byDatabase[id] { return connection }
            table = existing
        } else {
            table = ThreadConnections()
            Self.perThread.currentValue = table
        }
        let connection = try opened.withLockedValue { opened in
            guard !opened.closed else { throw SQLiteReadError(code: SQLITE_MISUSE, message: "the database is closed") }
            let connection = try SQLiteReadConnection(path: path)
            opened.connections.removeAll { $0.connection == nil }
            opened.connections.append(WeakConnection(connection: connection))
            return connection
        }
        table.byDatabase = table.byDatabase.filter { !$0.value.isClosed }
        table.byDatabase[id] = connection
        return connection
    }
}

/// A failure reported by SQLite on a thread reader's connection.
struct SQLiteReadError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// One read-only connection and its prepared statements. Used by one thread; the lock only orders a read against
/// `close` at shutdown.
final class SQLiteReadConnection: @unchecked Sendable {
    private let lock = NIOLock()
    private var handle: OpaquePointer?
    private var statements: [String: PreparedRead] = [:]
    /// Beyond this many distinct SQL texts a statement is prepared for its one use (GRDB caches without bound).
    private static let maximumCachedStatements = 256

    init(path: String) throws {
        // The settings of GRDB's connections; `query_only` makes any write an error.
        handle = try Self.openConnection(path: path, setup: SQLiteExecutor.connectionPragmas + "; PRAGMA query_only = 1")
    }

    /// Opens a connection of its own on `path` (read-write, no mutex: one thread at a time uses it) and runs
    /// `setup`; closes it again if either fails.
    static func openConnection(path: String, setup: String) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(handle)
            throw SQLiteReadError(code: code, message: message)
        }
        let ran = sqlite3_exec(handle, setup, nil, nil, nil)
        guard ran == SQLITE_OK else {
            let error = SQLiteReadError(code: ran, message: String(cString: sqlite3_errmsg(handle)))
            sqlite3_close_v2(handle)
            throw error
        }
        return handle
    }

    deinit { closeNow() }

    func close() {
        lock.withLock { closeNow() }
    }

    var isClosed: Bool { lock.withLock { handle == nil } }

    private func closeNow() {
        for statement in statements.values { sqlite3_finalize(statement.pointer) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    func read<Row: SQLRowDecodable>(_ statement: SQLStatement) throws -> [Row] {
        try lock.withLock {
            guard let handle else { throw SQLiteReadError(code: SQLITE_MISUSE, message: "the database is closed") }
            let prepared: PreparedRead
            var finalizeAfterUse = false
            if let cached = statements[statement.sql] {
                prepared = cached
            } else {
                prepared = try PreparedRead(sql: statement.sql, on: handle)
                if statements.count < Self.maximumCachedStatements {
                    statements[statement.sql] = prepared
                } else {
                    finalizeAfterUse = true
                }
            }
            defer {
                sqlite3_reset(prepared.pointer)
                sqlite3_clear_bindings(prepared.pointer)
                if finalizeAfterUse { sqlite3_finalize(prepared.pointer) }
            }
            try prepared.bind(statement.binds, on: handle)
            var rows: [Row] = []
            while true {
                let code = sqlite3_step(prepared.pointer)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw SQLiteReadError(code: code, message: String(cString: sqlite3_errmsg(handle)))
                }
                rows.append(try Row(row: SQLiteStatementRow(statement: prepared.pointer, columns: prepared.columns)))
            }
            return rows
        }
    }
}

/// A prepared statement and, for each of its parameters, which of the statement's values it takes: `$2` is the
/// second value wherever it appears (SQLite numbers named parameters by first appearance).
private struct PreparedRead {
    let pointer: OpaquePointer
    let valueIndexes: [Int]
    let columns: SQLColumnNames

    init(sql: String, on handle: OpaquePointer) throws {
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            throw SQLiteReadError(code: code, message: String(cString: sqlite3_errmsg(handle)))
        }
        var indexes: [Int] = []
        for parameter in 0..<sqlite3_bind_parameter_count(pointer) {
            guard let name = sqlite3_bind_parameter_name(pointer, parameter + 1),
                  name.pointee == UInt8(ascii: "$"), let number = Int(String(cString: name + 1)), number > 0
            else {
                sqlite3_finalize(pointer)
                throw SQLiteReadError(code: SQLITE_RANGE, message: "parameters must be written $1, $2, …: \(sql)")
            }
            indexes.append(number - 1)
        }
        self.pointer = pointer
        valueIndexes = indexes
        columns = SQLColumnNames((0..<sqlite3_column_count(pointer)).map { String(cString: sqlite3_column_name(pointer, $0)) })
    }

    /// Binds as `SQLiteExecutor.arguments` does for GRDB: booleans as 0/1, dates as seconds since 1970.
    func bind(_ values: [SQLValue], on handle: OpaquePointer) throws {
        for (offset, valueIndex) in valueIndexes.enumerated() {
            guard valueIndex < values.count else {
                throw SQLiteReadError(code: SQLITE_RANGE, message: "no value for $\(valueIndex + 1)")
            }
            let parameter = Int32(offset + 1)
            let code: Int32
            switch values[valueIndex] {
            case .null: code = sqlite3_bind_null(pointer, parameter)
            case .int(let int): code = sqlite3_bind_int64(pointer, parameter, Int64(int))
            case .bool(let bool): code = sqlite3_bind_int64(pointer, parameter, bool ? 1 : 0)
            case .double(let double): code = sqlite3_bind_double(pointer, parameter, double)
            case .date(let date): code = sqlite3_bind_double(pointer, parameter, date.timeIntervalSince1970)
            case .text(let text):
                code = text.utf8CString.withUnsafeBufferPointer { buffer in
                    sqlite3_bind_text(pointer, parameter, buffer.baseAddress, Int32(buffer.count - 1), sqliteTransient)
                }
            case .bytes(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(pointer, parameter, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), sqliteTransient)
                }
            }
            guard code == SQLITE_OK else {
                throw SQLiteReadError(code: code, message: String(cString: sqlite3_errmsg(handle)))
            }
        }
    }
}

/// SQLite copies a value bound with this destructor before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// The current row of a stepped statement. A NULL where a value is required is an error, as GRDB's decoding
/// makes it.
struct SQLiteStatementRow: SQLRow {
    let statement: OpaquePointer
    let columns: SQLColumnNames

    func index(of name: String) throws -> Int { try columns.index(of: name) }

    func isNull(_ index: Int) -> Bool { sqlite3_column_type(statement, Int32(index)) == SQLITE_NULL }

    func int(_ index: Int) throws -> Int {
        try required(index)
        return Int(sqlite3_column_int64(statement, Int32(index)))
    }

    func string(_ index: Int) throws -> String {
        try required(index)
        guard let text = sqlite3_column_text(statement, Int32(index)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func bool(_ index: Int) throws -> Bool { try int(index) != 0 }

    func date(_ index: Int) throws -> Date { Date(timeIntervalSince1970: try double(index)) }

    func double(_ index: Int) throws -> Double {
        try required(index)
        return sqlite3_column_double(statement, Int32(index))
    }

    func bytes(_ index: Int) throws -> [UInt8] {
        try required(index)
        let count = Int(sqlite3_column_bytes(statement, Int32(index)))
        guard count > 0, let blob = sqlite3_column_blob(statement, Int32(index)) else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: blob, count: count))
    }

    private func required(_ index: Int) throws {
        guard index < Int(sqlite3_column_count(statement)), !isNull(index) else {
            throw SQLiteReadError(code: SQLITE_MISMATCH, message: "column \(index) is NULL or missing")
        }
    }
}
