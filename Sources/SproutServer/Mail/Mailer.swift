import Foundation
import Logging

/// Queues mails: the caller writes `statement(for:)` in its own transaction, then calls `queued(_:)`, which wakes
/// the worker, or, with no SMTP server configured, writes the mail to the log marked as not sent (so a fresh
/// install still lets someone reset a password: the operator finds the link there or with `sprout mail list`).
struct Mailer: Sendable {
    let canSend: Bool
    let logger: Logger
    let wake: MailWorker.Bell

    init(_ settings: MailSettings, logger: Logger, wake: MailWorker.Bell = MailWorker.Bell()) {
        canSend = settings.smtp != nil
        self.logger = logger
        self.wake = wake
    }

    func statement(for mail: OutgoingMail, at now: Date, onlyIf condition: SQLStatement? = nil) -> SQLStatement {
        MailOutbox.enqueue(mail, held: !canSend, at: now, onlyIf: condition)
    }

    /// After the transaction that queued `mail` committed.
    func queued(_ mail: OutgoingMail) {
        if canSend {
            wake.ring()
        } else {
            logger.warning(
                "mail not sent: no SMTP_URL is set, so it is kept in the outbox (sprout mail list)",
                metadata: ["to": "\(mail.recipient)", "subject": "\(mail.subject)", "purpose": "\(mail.purpose)", "body": "\(mail.body)"]
            )
        }
    }
}
