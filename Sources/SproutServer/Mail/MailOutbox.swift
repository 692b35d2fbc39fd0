import Foundation

/// The outbox table: mails waiting, sent, failed, or held (no SMTP server configured). A mail is enqueued by the
/// statement `enqueue` gives, inside the transaction of whatever asked for it; `MailWorker` claims due mails for a
/// while (so two server processes never send one mail twice unless a process dies mid-delivery) and records the
/// outcome. The body of a sent mail is blanked: it may hold a live reset link.
struct MailOutbox: Sendable {
    enum Status: String, Sendable, CaseIterable {
        case queued, sent, failed
        /// Kept and logged instead of sent: no `SMTP_URL`.
        case held
    }

    struct Entry: Sendable, SQLRowDecodable {
        let id: Int
        let recipient: String
        let subject: String
        let body: String
        let purpose: String
        let status: Status
        let attempts: Int
        let nextAttemptAt: Date
        let lastError: String?
        let createdAt: Date
        let sentAt: Date?

        init(row: some SQLRow) throws {
            id = try row.int("id")
            recipient = try row.string("recipient")
            subject = try row.string("subject")
            body = try row.string("body")
            purpose = try row.string("purpose")
            status = Status(rawValue: try row.string("status")) ?? .failed
            attempts = try row.int("attempts")
            nextAttemptAt = try row.date("next_attempt_at")
            lastError = try row.optionalString("last_error")
            createdAt = try row.date("created_at")
            sentAt = try row.isNull("sent_at") ? nil : try row.date("sent_at")
        }
    }

    static let columns = "id, recipient, subject, body, purpose, status, attempts, next_attempt_at, last_error, created_at, sent_at"
    /// Tries before a mail is given up; with `backoff` that spans about four hours.
    static let maximumAttempts = 8
    /// How long a claimed mail is another process's: longer than a delivery may take (`SMTPClient.deadline`).
    static let claimDuration: TimeInterval = 120

    let executor: any SQLExecutor

    /// The statement that queues `mail` (held when nothing can send it), for the caller's own transaction; with a
    /// condition, only when it holds.
    static func enqueue(_ mail: OutgoingMail, held: Bool, at now: Date, onlyIf condition: SQLStatement? = nil) -> SQLStatement {
        let statement: SQLStatement = """
            INSERT INTO mail_outbox (recipient, subject, body, purpose, status, attempts, next_attempt_at, created_at)
            SELECT \(bind: mail.recipient), \(bind: mail.subject), \(bind: mail.body), \(bind: mail.purpose),
              \(bind: (held ? Status.held : Status.queued).rawValue), 0, \(bind: now), \(bind: now)
            """
        guard let condition else { return statement }
        return SQLStatement.joined([statement, "WHERE", condition], separator: " ")
    }

    /// Up to `limit` due mails, claimed for `claimDuration`, their attempt counted.
    func claimDue(limit: Int, at now: Date) async throws -> [Entry] {
        let skipLocked = executor.dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
        return try await executor.write(
            """
            UPDATE mail_outbox SET claimed_until = \(bind: now.addingTimeInterval(Self.claimDuration)), attempts = attempts + 1
            WHERE id IN (
              SELECT id FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= \(bind: now)
                AND (claimed_until IS NULL OR claimed_until <= \(bind: now))
              ORDER BY next_attempt_at, id LIMIT \(bind: limit)\(raw: skipLocked))
            RETURNING \(raw: Self.columns)
            """,
            as: Entry.self
        )
    }

    func markSent(_ id: Int, at now: Date) async throws {
        try await executor.writeAll([
            "UPDATE mail_outbox SET status = 'sent', sent_at = \(bind: now), body = '', claimed_until = NULL, last_error = NULL WHERE id = \(bind: id)"
        ])
    }

    /// Records a failed attempt: tried again after `retryAt`, or given up (`failed`) when nil.
    func markFailed(_ id: Int, error: String, retryAt: Date?) async throws {
        let status = retryAt == nil ? Status.failed : Status.queued
        try await executor.writeAll([
            """
            UPDATE mail_outbox SET status = \(bind: status.rawValue), last_error = \(bind: String(error.prefix(500))),
              next_attempt_at = \(bind: retryAt ?? Date()), claimed_until = NULL WHERE id = \(bind: id)
            """
        ])
    }

    /// The wait after the `attempts`th failure: 30 s, 1 min, 2 min … at most an hour.
    static func backoff(afterAttempt attempts: Int) -> TimeInterval {
        min(30 * pow(2, Double(max(attempts - 1, 0))), 3600)
    }

    /// The newest mails first, for `sprout mail list`.
    func list(status: Status? = nil, limit: Int) async throws -> [Entry] {
        let condition: SQLStatement = status.map { "WHERE status = \(bind: $0.rawValue)" } ?? ""
        return try await executor.read("SELECT \(raw: Self.columns) FROM mail_outbox \(condition) ORDER BY id DESC LIMIT \(bind: limit)", as: Entry.self)
    }

    func find(id: Int) async throws -> Entry? {
        try await executor.readFirst("SELECT \(raw: Self.columns) FROM mail_outbox WHERE id = \(bind: id)", as: Entry.self)
    }

    /// Mails held because no SMTP server was configured, newer than `since`: the log already shows them.
    func held(since id: Int, limit: Int) async throws -> [Entry] {
        try await executor.read(
            "SELECT \(raw: Self.columns) FROM mail_outbox WHERE status = 'held' AND id > \(bind: id) ORDER BY id LIMIT \(bind: limit)", as: Entry.self
        )
    }
}

/// A mail to queue.
struct OutgoingMail: Sendable, Equatable {
    let recipient: String
    let subject: String
    let body: String
    /// What it is for (`password-reset`, `email-confirmation`), for the outbox's list.
    let purpose: String
}
