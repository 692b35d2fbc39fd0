import ArgumentParser
import Foundation
import SproutServer
import SproutWire

/// `sprout audit list`: who changed what, from the console and the command line. The log is append-only; nothing
/// here edits it.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show the audit log: every change made from the console or with sprout's commands.",
        subcommands: [List.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List entries, newest first.")
        @Option(help: "Only this actor (a username, or cli:<user>).") var actor: String?
        @Option(help: "Only this action (account.block, content.hide, …).") var action: String?
        @Option(help: "Only this target (account:3, post:12, …).") var target: String?
        @Option(help: "Entries older than this id (the next page).") var before: Int?
        @Option(help: "At most this many (1…1000).") var limit: Int = 50
        @Flag(help: "One JSON object per line.") var json = false
        @OptionGroup var data: DataOptions

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
        }

        func run() async throws {
            let filter = AuditFilter(actor: actor, action: action, target: target, beforeID: before, limit: limit)
            let json = json
            let configuration = try data.configuration()
            try await withDatabase(configuration) { database in
                try await database.prepare(configuration)
                let records = try await AuditTrail(database: database, configuration: configuration).list(filter)
                if records.isEmpty && !json { print("No entries.") }
                for record in records { print(json ? record.jsonLine : record.line) }
            }
        }
    }
}

extension AuditRecord {
    var line: String {
        let changed = changes.keys.sorted().map { key -> String in
            let change = changes[key]!
            return "\(key): \(change.before ?? "–") → \(change.after ?? "–")"
        }.joined(separator: ", ")
        let origin = [client, requestID].compactMap { $0 }.joined(separator: " ")
        return "\(id)\t\(StrapiTimestamp.string(from: at))\t\(actor)\t\(action)\t\(target)\t\(changed)\t\(origin)"
    }

    var jsonLine: String {
        struct Line: Encodable {
            let id: Int, at: String, actor: String, actorAccountID: Int?, action: String, target: String
            let changes: [String: AuditEntry.Change], client: String?, userAgent: String?, requestID: String?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = Line(
            id: id, at: StrapiTimestamp.string(from: at), actor: actor, actorAccountID: actorAccountID, action: action, target: target,
            changes: changes, client: client, userAgent: userAgent, requestID: requestID
        )
        return (try? String(decoding: encoder.encode(line), as: UTF8.self)) ?? "{}"
    }
}
