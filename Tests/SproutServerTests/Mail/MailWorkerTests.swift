import Foundation
import Testing
@testable import SproutServer

/// The outbox's worker: two processes on one database send every mail exactly once.
@Suite struct MailWorkerTests {
    @Test func twoWorkersOnOneDatabaseSendEveryMailOnce() async throws {
        let sink = try await SMTPSink.start()
        defer { Task { await sink.stop() } }
        try await withTestApp { _, database in
            let now = Date()
            let statements = (0..<30).map { index in
                MailOutbox.enqueue(OutgoingMail(recipient: "reader\(index)@example.com", subject: "mail \(index)", body: "body \(index)", purpose: "test"), held: false, at: now)
            }
            try await database.executor.writeAll(statements)
            let second = try SproutDatabase(settings: database.settings, migrations: SproutMigrations.all, logger: testLogger())
            try await second.withOpen { secondDatabase in
                let workers = [database.executor, secondDatabase.executor].map { executor in
                    MailWorker(
                        outbox: MailOutbox(executor: executor), client: SMTPClient(server: try! SMTPServer(url: sink.url), heloName: "test"),
                        sender: MailAddress(address: "no-reply@sprout.example"), bell: MailWorker.Bell(), logger: testLogger()
                    )
                }
                await withTaskGroup(of: Void.self) { group in
                    for worker in workers { group.addTask { await worker.sendDue() } }
                }
            }
            // Both workers have returned: every delivery they made has been accepted by the sink.
            let received = sink.received
            #expect(received.count == 30)
            #expect(Set(received.flatMap(\.to)).count == 30, "no mail twice")
            let outbox = try await MailOutbox(executor: database.executor).list(limit: 100)
            #expect(outbox.allSatisfy { $0.status == .sent && $0.attempts == 1 })
        }
    }
}
