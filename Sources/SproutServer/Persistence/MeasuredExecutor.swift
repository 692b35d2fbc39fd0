import PostgresNIO

/// An executor that times every statement by kind (`DatabaseMetrics`) and counts PostgreSQL connection errors,
/// around the real one. Only used when metrics are on, so an unmeasured server pays nothing for it. Each method
/// times its call itself rather than through a shared generic closure: a plain read is a few microseconds, and an
/// extra async frame with a closure context per statement would be a visible part of it.
struct MeasuredExecutor: SQLExecutor {
    let base: any SQLExecutor
    let metrics: DatabaseMetrics

    var dialect: SQLDialect { base.dialect }
    var trigramCounts: TrigramDocumentCounts? { base.trigramCounts }

    func read<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        let started = ContinuousClock.now
        defer { metrics.record(.read, since: started) }
        do { return try await base.read(statement, as: type) } catch { throw noted(error) }
    }

    func readKeyed<Row>(_ key: Int, by lookup: KeyedLookup<Row>) async throws -> Row? {
        let started = ContinuousClock.now
        defer { metrics.record(.read, since: started) }
        do { return try await base.readKeyed(key, by: lookup) } catch { throw noted(error) }
    }

    func slowRead<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        let started = ContinuousClock.now
        defer { metrics.record(.slowRead, since: started) }
        do { return try await base.slowRead(statement, as: type) } catch { throw noted(error) }
    }

    func write<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        let started = ContinuousClock.now
        defer { metrics.record(.write, since: started) }
        do { return try await base.write(statement, as: type) } catch { throw noted(error) }
    }

    func writeAll(_ statements: [SQLStatement]) async throws {
        let started = ContinuousClock.now
        defer { metrics.record(.write, since: started) }
        do { try await base.writeAll(statements) } catch { throw noted(error) }
    }

    func writeAll(_ statements: [SQLStatement], beforeCommit: @escaping @Sendable () throws -> Void) async throws {
        let started = ContinuousClock.now
        defer { metrics.record(.write, since: started) }
        do { try await base.writeAll(statements, beforeCommit: beforeCommit) } catch { throw noted(error) }
    }

    func writeSequence<Row: SQLRowDecodable>(_ statements: [SQLStatement], as type: Row.Type) async throws -> [Row] {
        let started = ContinuousClock.now
        defer { metrics.record(.write, since: started) }
        do { return try await base.writeSequence(statements, as: type) } catch { throw noted(error) }
    }

    func noteGrowth(of table: String, by rows: Int) {
        base.noteGrowth(of: table, by: rows)
    }

    /// Counts a PostgreSQL connection error; answers the error to rethrow.
    private func noted(_ error: any Error) -> any Error {
        if let failure = error as? PSQLError, Self.isConnectionError(failure) { metrics.postgresConnectionErrors.increment() }
        if error is PostgresConnectionGone { metrics.postgresConnectionErrors.increment() }
        return error
    }

    /// The connection failed, not the statement: refused, closed, TLS, or a pool that gave up waiting.
    static func isConnectionError(_ error: PSQLError) -> Bool {
        [.connectionError, .serverClosedConnection, .clientClosedConnection, .sslUnsupported, .failedToAddSSLHandler,
         .poolClosed, .uncleanShutdown]
            .contains(error.code)
    }
}
