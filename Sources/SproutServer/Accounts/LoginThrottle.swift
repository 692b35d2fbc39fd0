import Foundation

/// Login rate limiting, as the contract decides: after 10 failed attempts for one account (or unknown
/// identifier), or 20 from one address, within 15 minutes, further attempts are refused (429) until the window
/// passes. Attempts are rows in `login_failures`, so every server process on the database counts the same ones.
///
/// Each attempt is counted *before* its password is checked, in one transaction that takes the account's and the
/// address's place in line (a PostgreSQL advisory lock; SQLite has one writer) and records the attempt only while
/// both are under their limits. An attempt still being checked therefore counts like a failure: 200 guesses sent
/// at once get at most 10 password checks, not 200 (the check-then-act race this replaced). A right password
/// removes its attempt and the account's failures; a wrong one leaves its rows as the failure.
struct LoginThrottle: Sendable {
    static let window: TimeInterval = 15 * 60
    static let failuresPerIdentifier = 10
    static let failuresPerAddress = 20

    let executor: any SQLExecutor

    /// Who the attempts are counted against: the account when the identifier names one (so its username and its
    /// email share one budget), else the identifier as typed, lowercased.
    enum Subject {
        case account(Int)
        case unknownIdentifier(String)

        var key: String {
            switch self {
            case .account(let id): "account:\(id)"
            case .unknownIdentifier(let identifier): "identifier:" + identifier.lowercased()
            }
        }
    }

    /// An attempt counted and not yet decided.
    struct Attempt: Sendable {
        let id: String
        let subjectKey: String
    }

    /// Counts one attempt for `subject` from `address`, or answers nil when either is at its limit (a refused
    /// attempt is not itself counted, so the window ends 15 minutes after the failures that filled it).
    func claimAttempt(for subject: Subject, address: String, at now: Date) async throws -> Attempt? {
        let attempt = Attempt(id: UUID().uuidString, subjectKey: subject.key)
        let addressKey = Self.addressKey(address)
        var statements: [SQLStatement] = []
        if executor.dialect == .postgres {
            // Concurrent attempts for one account or address wait for each other here, so each counts the rows
            // the ones before it recorded. Subject then address, in every transaction: no lock cycle.
            statements.append("""
                SELECT pg_advisory_xact_lock(hashtext(\(bind: "login:" + attempt.subjectKey))),
                  pg_advisory_xact_lock(hashtext(\(bind: "login:" + addressKey)))
                """)
        }
        let windowStart = now.addingTimeInterval(-Self.window)
        statements.append("DELETE FROM login_failures WHERE failed_at <= \(bind: windowStart)")
        statements.append("""
            INSERT INTO login_failures (key, failed_at, attempt)
            SELECT keys.k, \(bind: now), \(bind: attempt.id) FROM (SELECT \(bind: attempt.subjectKey) AS k UNION ALL SELECT \(bind: addressKey)) AS keys
            WHERE (SELECT count(*) FROM login_failures WHERE key = \(bind: attempt.subjectKey) AND failed_at > \(bind: windowStart))
                < \(bind: Self.failuresPerIdentifier)
              AND (SELECT count(*) FROM login_failures WHERE key = \(bind: addressKey) AND failed_at > \(bind: windowStart))
                < \(bind: Self.failuresPerAddress)
            RETURNING key
            """)
        let recorded = try await executor.writeSequence(statements, as: SQLTextValue.self)
        return recorded.isEmpty ? nil : attempt
    }

    /// The password was right: this attempt and the subject's earlier failures are forgotten (not the address's:
    /// someone who mistyped a few times and then got in does not carry those mistakes into the next quarter hour,
    /// but an address guessing at many accounts keeps its count).
    func succeeded(_ attempt: Attempt) async throws {
        _ = try await executor.write(
            "DELETE FROM login_failures WHERE key = \(bind: attempt.subjectKey) OR attempt = \(bind: attempt.id)",
            as: SQLInt.self
        )
    }

    static func addressKey(_ address: String) -> String { "address:" + address }
}
