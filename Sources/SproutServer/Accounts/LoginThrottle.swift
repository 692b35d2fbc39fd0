import Foundation

/// Login rate limiting, as the contract decides: after 10 failed attempts for one identifier, or 20 from one
/// address, within 15 minutes, further attempts are refused (429) until the window passes. The failures are
/// rows in `login_failures`, so every server process on the database counts the same ones.
struct LoginThrottle: Sendable {
    static let window: TimeInterval = 15 * 60
    static let failuresPerIdentifier = 10
    static let failuresPerAddress = 20

    let executor: any SQLExecutor

    /// Whether another attempt may be made now. A refused attempt is not itself counted, so the window does
    /// end 15 minutes after the failures that filled it.
    func allowsAttempt(identifier: String, address: String, at now: Date) async throws -> Bool {
        let since = now.addingTimeInterval(-Self.window)
        let statement = SQLStatement(
            """
            SELECT (SELECT count(*) FROM login_failures WHERE key = $1 AND failed_at > $3),
                   (SELECT count(*) FROM login_failures WHERE key = $2 AND failed_at > $3)
            """,
            .text(Self.identifierKey(identifier)), .text(Self.addressKey(address)), .date(since)
        )
        guard let counts = try await executor.readFirst(statement, as: FailureCounts.self) else { return true }
        return counts.identifier < Self.failuresPerIdentifier && counts.address < Self.failuresPerAddress
    }

    /// Records a failed attempt against both keys, and forgets failures older than the window.
    func recordFailure(identifier: String, address: String, at now: Date) async throws {
        try await executor.writeAll([
            SQLStatement("DELETE FROM login_failures WHERE failed_at <= $1", .date(now.addingTimeInterval(-Self.window))),
            SQLStatement(
                "INSERT INTO login_failures (key, failed_at) VALUES ($1, $3), ($2, $3)",
                .text(Self.identifierKey(identifier)), .text(Self.addressKey(address)), .date(now)
            ),
        ])
    }

    /// A successful login clears its identifier's failures (not its address's): someone who mistyped a few
    /// times and then got in does not carry those mistakes into the next quarter hour.
    func recordSuccess(identifier: String) async throws {
        _ = try await executor.write(SQLStatement("DELETE FROM login_failures WHERE key = $1", .text(Self.identifierKey(identifier))), as: SQLInt.self)
    }

    /// Identifiers are compared lowercased: `Alice` and `alice` are one identifier for the limiter.
    static func identifierKey(_ identifier: String) -> String { "identifier:" + identifier.lowercased() }
    static func addressKey(_ address: String) -> String { "address:" + address }
}

private struct FailureCounts: SQLRowDecodable {
    let identifier: Int
    let address: Int
    init(row: some SQLRow) throws {
        identifier = try row.int(0)
        address = try row.int(1)
    }
}
