import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Sends the outbox's queued mails, inside `sprout serve`: woken when this process queues one, and every few
/// seconds for mails other processes queued or retries that fell due. Each mail is claimed before it is sent, so
/// two processes never send the same one; a failure is tried again after `MailOutbox.backoff` (30 s doubling to an
/// hour), a refusal for good (a 5xx) or the eighth failure ends it as `failed`. Graceful shutdown lets the mail
/// being sent finish.
struct MailWorker: Service {
    /// Wakes the worker; ringing while it is busy leaves one ring for when it is done.
    final class Bell: Sendable {
        let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        }

        func ring() { continuation.yield() }
    }

    let outbox: MailOutbox
    let client: SMTPClient
    let sender: MailAddress
    let bell: Bell
    let logger: Logger
    var clock = WallClock.system
    /// How often the outbox is looked at without a ring.
    var pollInterval: Duration = .seconds(5)
    /// Told of every delivery and failure (metrics, tests).
    var onOutcome: @Sendable (_ sent: Bool) -> Void = { _ in }

    func run() async throws {
        logger.info("sending mail", metadata: ["smtp": "\(client.server)", "from": "\(sender.address)"])
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                // Turns the poll interval into rings, so one loop below waits on one thing.
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: pollInterval)
                        bell.ring()
                    }
                }
                for await _ in bell.stream {
                    if Task.isCancelled { break }
                    await sendDue()
                }
                group.cancelAll()
            }
        }
    }

    /// Sends every due mail, a few claimed at a time. Never throws: a database error is logged and the next ring
    /// tries again.
    func sendDue() async {
        do {
            while true {
                let due = try await outbox.claimDue(limit: 10, at: clock.now)
                if due.isEmpty { return }
                for entry in due {
                    await deliver(entry)
                }
            }
        } catch {
            logger.error("could not read the mail outbox", metadata: ["error": "\(error)"])
        }
    }

    private func deliver(_ entry: MailOutbox.Entry) async {
        let message = MailMessage(from: sender, to: entry.recipient, subject: entry.subject, body: entry.body)
        let messageID = "\(UUID().uuidString.lowercased())@\(sender.address.split(separator: "@").last ?? "sprout")"
        do {
            try await client.send(message, messageID: messageID, date: clock.now)
        } catch {
            await recordFailure(of: entry, error)
            return
        }
        do {
            try await outbox.markSent(entry.id, at: clock.now)
        } catch {
            // Its claim runs out and it is sent again: a second copy rather than none.
            logger.error("mail sent but not recorded as sent", metadata: ["mail": "\(entry.id)", "error": "\(error)"])
        }
        logger.info("mail sent", metadata: ["mail": "\(entry.id)", "purpose": "\(entry.purpose)"])
        onOutcome(true)
    }

    private func recordFailure(of entry: MailOutbox.Entry, _ error: any Error) async {
        let permanent = (error as? SMTPError)?.isPermanent ?? false
        let retryAt = permanent || entry.attempts >= MailOutbox.maximumAttempts
            ? nil : clock.now.addingTimeInterval(MailOutbox.backoff(afterAttempt: entry.attempts))
        logger.warning("mail not delivered", metadata: [
            "mail": "\(entry.id)", "purpose": "\(entry.purpose)", "attempt": "\(entry.attempts)", "error": "\(error)",
            "next": "\(retryAt.map { "\($0)" } ?? "given up")",
        ])
        do {
            try await outbox.markFailed(entry.id, error: "\(error)", retryAt: retryAt)
        } catch {
            logger.error("could not record a mail's failure", metadata: ["mail": "\(entry.id)", "error": "\(error)"])
        }
        onOutcome(false)
    }
}
