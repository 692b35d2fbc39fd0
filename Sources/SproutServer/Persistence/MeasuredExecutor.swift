import PostgresNIO

/// An executor that times every statement by kind (`DatabaseMetrics`) and counts PostgreSQL connection errors,
/// around the real one. Only used when metrics are on, so an unmeasured server pays nothing for it.
struct MeasuredExecutor: SQLExecutor {
    let base: any SQLExecutor
    let metrics: DatabaseMetrics

    var dialect: SQLDialect { base.dialect }
    var trigramCounts: TrigramDocumentCounts? { base.trigramCounts }

    func read<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try await measure(.read) { try await base.read(statement, as: type) }
    }

    func slowRead<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try await measure(.slowRead) { try await base.slowRead(statement, as: type) }
    }

    func write<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        try await measure(.write) { try await base.write(statement, as: type) }
    }

    func writeAll(_ statements: [SQLStatement]) async throws {
        try await measure(.write) { try await base.writeAll(statements) }
    }

    func writeAll(_ statements: [SQLStatement], beforeCommit: @escaping @Sendable () throws -> Void) async throws {
        try await measure(.write) { try await base.writeAll(statements, beforeCommit: beforeCommit) }
    }

    func writeSequence<Row: SQLRowDecodable>(_ statements: [SQLStatement], as type: Row.Type) async throws -> [Row] {
        try await measure(.write) { try await base.writeSequence(statements, as: type) }
    }

    func noteGrowth(of table: String, by rows: Int) {
        base.noteGrowth(of: table, by: rows)
    }

    private func measure<Value>(_ kind: DatabaseMetrics.Kind, _ body: () async throws -> Value) async throws -> Value {
        let started = ContinuousClock.now
        defer { metrics.record(kind, since: started) }
        do {
            return try await body()
        } catch let error as PSQLError where Self.isConnectionError(error) {
            metrics.postgresConnectionErrors.increment()
            throw error
        }
    }

    /// The connection failed, not the statement: refused, closed, TLS, or a pool that gave up waiting.
    static func isConnectionError(_ error: PSQLError) -> Bool {
        [.connectionError, .serverClosedConnection, .clientClosedConnection, .sslUnsupported, .failedToAddSSLHandler,
         .poolClosed, .uncleanShutdown]
            .contains(error.code)
    }
}
