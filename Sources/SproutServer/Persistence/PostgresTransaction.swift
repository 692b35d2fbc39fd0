import PostgresNIO

/// BEGIN, the body, COMMIT on one connection; ROLLBACK when the body throws, unless the connection is gone.
///
/// Not postgres-nio's `withTransaction`, which sends ROLLBACK after any error. postgres-nio (1.33, and its main branch
/// in August 2026) writes each query to its channel without a write promise: once a closed channel's handlers are
/// removed, the write fails unseen and the query's own promise is never completed, so its caller waits for good and
/// its connection stays leased. A statement that ended its session (the server terminated it; PgBouncer dropped a
/// crashed server connection) was followed by exactly such a ROLLBACK, and now and then a PostgreSQL test suite hung
/// on it (`aTransactionCutOffByTheServerMeansTheDatabaseIsAway`, named by its log lines once each carried its test). A
/// session that ends takes its open transaction with it, so there is nothing to roll back; and no statement is sent on
/// a connection already closed (`PostgresConnectionGone` instead).
enum PostgresTransaction {
    /// A BEGIN answered with the end of its session (through PgBouncer, a client connection whose server connection
    /// crashed answers its next statement so) ran nothing: the transaction goes to another connection, twice at most.
    static func run<Value: Sendable>(
        on client: PostgresClient, _ body: @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        for mayTryAgain in [true, true, false] {
            let committed: Value? = try await client.withOpenConnection { connection in
                do {
                    try await execute("BEGIN", on: connection)
                } catch where mayTryAgain && endedTheSession(error) {
                    return nil
                }
                return try await afterBegin(on: connection, body)
            }
            if let committed { return committed }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    static func run<Value: Sendable>(
        on connection: PostgresConnection, _ body: @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        try await execute("BEGIN", on: connection)
        return try await afterBegin(on: connection, body)
    }

    private static func afterBegin<Value: Sendable>(
        on connection: PostgresConnection, _ body: @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let value: Value
        do {
            value = try await body(connection)
        } catch {
            await rollBack(connection, after: error)
            throw error
        }
        // A failed COMMIT is not followed by ROLLBACK: the server has ended the transaction either way.
        try await execute("COMMIT", on: connection)
        return value
    }

    /// ROLLBACK after `error`, unless the connection is gone (then the server has rolled back already). Its own
    /// failure is not reported: the caller reports `error`.
    static func rollBack(_ connection: PostgresConnection, after error: any Error) async {
        guard !endedTheSession(error), !connection.isClosed else { return }
        try? await execute("ROLLBACK", on: connection)
    }

    /// A statement run to its end (its rows drained, so it fails here rather than as the next one's "current
    /// transaction is aborted"), never on a connection already closed.
    static func execute(_ sql: String, on connection: PostgresConnection) async throws {
        try connection.checkOpen()
        for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresExecutor.silent) {}
    }

    /// The error means the session ended: the connection closed or broke, or the server ended it (a FATAL error
    /// such as 57P01 when an administrator or a shutdown terminates it).
    static func endedTheSession(_ error: any Error) -> Bool {
        if error is PostgresConnectionGone { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown:
            return true
        case .unexpectedBackendMessage:
            // postgres-nio closes a connection whose protocol went astray; PgBouncer's "server conn crashed?"
            // (FATAL, 08P01) arrives so, as the answer to the statement after the crash.
            return true
        case .server:
            let severity = error.serverInfo?[.severity] ?? ""  // not localized, unlike .localizedSeverity
            return severity == "FATAL" || severity == "PANIC"
        default:
            return false
        }
    }
}

extension PostgresConnection {
    /// Throws instead of letting a statement go to a connection that has closed, where it would wait for good (see
    /// `PostgresTransaction`).
    func checkOpen() throws {
        if isClosed { throw PostgresConnectionGone() }
    }
}

extension PostgresClient {
    /// `withConnection`, on a connection that is open when `body` starts. The pool hands out a connection that has
    /// just closed until it hears of the closing (right after a statement that ended its session, say); nothing has
    /// been sent on it yet, so another is leased, a few times, a moment apart.
    func withOpenConnection<Value: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        var attempt = 1
        while true {
            let leased: Value? = try await withConnection { connection in
                if connection.isClosed, attempt < 4 { return nil }
                try connection.checkOpen()
                return try await body(connection)
            }
            if let leased { return leased }
            try await Task.sleep(for: .milliseconds(5 * attempt))
            attempt += 1
        }
    }
}

/// A statement was about to go to a connection that had already closed (see `PostgresTransaction`).
struct PostgresConnectionGone: Error, CustomStringConvertible {
    var description: String { "the PostgreSQL connection had closed before the statement was sent" }
}
