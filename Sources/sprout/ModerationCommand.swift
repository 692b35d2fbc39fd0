import ArgumentParser
import Foundation
import SproutServer
import SproutWire

/// `sprout moderate hide|restore|delete KIND ID…`: the console's moderation, on the same code path, audited as
/// `cli:<user>`.
struct ModerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moderate",
        abstract: "Hide, restore or delete posts, comments, products or board posts (resolves their reports; in the audit log).",
        subcommands: [Hide.self, Restore.self, Delete.self]
    )

    struct Items: ParsableArguments {
        @Argument(help: "post, comment, product or board-post.") var kind: ModeratedKind
        @Argument(help: "One or more ids (at most 1,000).") var ids: [Int]

        func validate() throws {
            guard ids.count <= Moderation.maximumBatch else { throw ValidationError("At most \(Moderation.maximumBatch) ids at once.") }
            guard ids.allSatisfy({ $0 > 0 }) else { throw ValidationError("Ids are positive integers.") }
        }
    }

    struct Hide: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Hide items: only their authors still see them (marked).")
        @OptionGroup var items: Items
        @OptionGroup var data: DataOptions
        func run() async throws { try await moderate(.hide, items, data) }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show hidden items to everyone again.")
        @OptionGroup var items: Items
        @OptionGroup var data: DataOptions
        func run() async throws { try await moderate(.restore, items, data) }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete items for good (a post takes its comments; a product its images).")
        @OptionGroup var items: Items
        @Flag(help: "Really delete: without it nothing is deleted.") var yes = false
        @OptionGroup var data: DataOptions
        func run() async throws {
            guard yes else {
                print("This deletes \(items.ids.count) \(items.kind.rawValue)(s) for good. Run again with --yes to do it.")
                throw ExitCode(1)
            }
            try await moderate(.delete, items, data)
        }
    }
}

private func moderate(_ action: Moderation.Action, _ items: ModerateCommand.Items, _ data: DataOptions) async throws {
    let (kind, ids) = (items.kind, items.ids)
    let configuration = try data.configuration()
    try await withDatabase(configuration) { database in
        try await database.prepare(configuration)
        let changed = try await Moderation(database: database, configuration: configuration).apply(action, to: kind, ids: ids, by: .commandLine())
        let verb = switch action {
        case .hide: "Hid"
        case .restore: "Restored"
        case .delete: "Deleted"
        }
        print("\(verb) \(changed.count) of \(Set(ids).count) \(kind.rawValue)(s)\(changed.isEmpty ? "" : ": " + changed.map(String.init).joined(separator: " "))")
        let untouched = Set(ids).subtracting(changed).sorted()
        if !untouched.isEmpty {
            print("Unchanged (no such item, or already so): \(untouched.map(String.init).joined(separator: " "))")
        }
    }
}

/// `sprout report list`: the open reports, one line per reported item.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Show the reports people filed that no moderator has acted on yet, or close them.",
        subcommands: [List.self, Dismiss.self]
    )

    struct Dismiss: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close the open reports of items without changing them (unfounded, or the item is gone; in the audit log)."
        )
        @OptionGroup var items: ModerateCommand.Items
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (kind, ids) = (items.kind, items.ids)
            let configuration = try data.configuration()
            try await withDatabase(configuration) { database in
                try await database.prepare(configuration)
                let closed = try await Moderation(database: database, configuration: configuration).dismissReports(of: kind, ids: ids, by: .commandLine())
                print("Closed the reports of \(closed.count) of \(Set(ids).count) \(kind.rawValue)(s)\(closed.isEmpty ? "" : ": " + closed.map(String.init).joined(separator: " "))")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reported items, most reporters first.")
        @Option(help: "Only this kind: post, comment, product or board-post.") var kind: ModeratedKind?
        @Option(help: "At most this many (1…1000).") var limit: Int = 50
        @OptionGroup var data: DataOptions

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
        }

        func run() async throws {
            let (kind, limit) = (kind, limit)
            let configuration = try data.configuration()
            try await withDatabase(configuration) { database in
                try await database.prepare(configuration)
                let items = try await Reports(database: database).queue(kind: kind, limit: limit)
                if items.isEmpty { print("No open reports.") }
                for item in items {
                    let what = item.excerpt.map { String($0.prefix(60)).replacingOccurrences(of: "\n", with: " ") } ?? "(gone)"
                    print("\(item.kind.rawValue)\t\(item.targetID)\t\(item.reporters) reporter(s)\t\(item.hidden ? "hidden" : "shown")\t\(StrapiTimestamp.string(from: item.lastReportedAt))\t\(item.latestReason)\t\(what)")
                }
            }
        }
    }
}

extension ModeratedKind: ExpressibleByArgument {}
