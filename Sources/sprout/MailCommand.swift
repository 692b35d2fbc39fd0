import ArgumentParser
import Foundation
import SproutServer
import SproutWire

/// `sprout mail …`: the outbox of password resets and confirmations. Without `SMTP_URL` every mail is held there
/// (and logged), so an operator can still hand a reset link to the person who asked.
struct MailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mail",
        abstract: "Show the mail outbox: what was sent, is waiting, failed, or is held for want of SMTP_URL.",
        subcommands: [List.self, Show.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List mails, newest first.")
        @Option(help: "Only this status: \(MailAdministration.statuses.joined(separator: ", ")).") var status: String?
        @Option(help: "At most this many (1…1000).") var limit: Int = 50
        @OptionGroup var data: DataOptions

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
            if let status, !MailAdministration.statuses.contains(status) {
                throw ValidationError("--status must be one of \(MailAdministration.statuses.joined(separator: ", "))")
            }
        }

        func run() async throws {
            let (status, limit) = (status, limit)
            let configuration = try data.configuration()
            try await withDatabase(configuration) { database in
                try await database.prepare(configuration)
                let mails = try await MailAdministration(database: database).list(status: status, limit: limit)
                if mails.isEmpty { print("No mails.") }
                for mail in mails {
                    let error = mail.lastError.map { "\t\($0)" } ?? ""
                    print("\(mail.id)\t\(StrapiTimestamp.string(from: mail.createdAt))\t\(mail.status)\t\(mail.attempts)\t\(mail.purpose)\t\(mail.recipient)\(error)")
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one mail, with its text unless it was sent.")
        @Argument(help: "The mail's id (from `sprout mail list`).") var id: Int
        @OptionGroup var data: DataOptions

        func run() async throws {
            let id = id
            let configuration = try data.configuration()
            try await withDatabase(configuration) { database in
                try await database.prepare(configuration)
                guard let mail = try await MailAdministration(database: database).find(id: id) else {
                    throw ValidationError("No mail has id \(id).")
                }
                print("""
                    id:       \(mail.id)
                    to:       \(mail.recipient)
                    subject:  \(mail.subject)
                    purpose:  \(mail.purpose)
                    status:   \(mail.status) after \(mail.attempts) attempt(s)\(mail.lastError.map { "; last error: \($0)" } ?? "")
                    created:  \(StrapiTimestamp.string(from: mail.createdAt))
                    """)
                if let sent = mail.sentAt { print("sent:     \(StrapiTimestamp.string(from: sent))") }
                print(mail.body.isEmpty ? "(text removed once sent)" : "\n" + mail.body)
            }
        }
    }
}
