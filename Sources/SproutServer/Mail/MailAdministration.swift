import Foundation

/// What `sprout mail list` and `sprout mail show` show of a mail in the outbox.
public struct MailSummary: Sendable {
    public let id: Int
    public let recipient: String
    public let subject: String
    public let purpose: String
    /// `queued`, `sent`, `failed`, or `held` (no SMTP server configured).
    public let status: String
    public let attempts: Int
    public let lastError: String?
    public let createdAt: Date
    public let sentAt: Date?
    /// Blank once sent (it may have held a live link).
    public let body: String

    init(_ entry: MailOutbox.Entry) {
        id = entry.id
        recipient = entry.recipient
        subject = entry.subject
        purpose = entry.purpose
        status = entry.status.rawValue
        attempts = entry.attempts
        lastError = entry.lastError
        createdAt = entry.createdAt
        sentAt = entry.sentAt
        body = entry.body
    }
}

/// The operator's view of the mail outbox (`sprout mail list|show`).
public struct MailAdministration: Sendable {
    let outbox: MailOutbox

    public init(database: SproutDatabase) {
        outbox = MailOutbox(executor: database.executor)
    }

    public static let statuses = MailOutbox.Status.allCases.map(\.rawValue)

    /// The newest mails first, of one status if given.
    public func list(status: String? = nil, limit: Int = 50) async throws -> [MailSummary] {
        try await outbox.list(status: status.flatMap(MailOutbox.Status.init(rawValue:)), limit: limit).map(MailSummary.init)
    }

    public func find(id: Int) async throws -> MailSummary? {
        try await outbox.find(id: id).map(MailSummary.init)
    }
}
