import ArgumentParser
import Foundation
import SproutServer
import SproutWire

/// `sprout account …`: the administrator's view of the accounts every app shares.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "List, inspect, reset, block or delete accounts.",
        subcommands: [List.self, Show.self, ResetPassword.self, Block.self, Unblock.self, Delete.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts in id order.")
        @Option(help: "Show accounts after this id.") var after: Int = 0
        @Option(help: "At most this many (1…1000).") var limit: Int = 100
        @OptionGroup var data: DataOptions

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
        }

        func run() async throws {
            let (after, limit) = (after, limit)
            try await withAdministration(data) { administration in
                let accounts = try await administration.list(afterID: after, limit: limit)
                if accounts.isEmpty { print("No accounts.") }
                for account in accounts { print(account.line) }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one account.")
        @Argument(help: "An id, a username or an email.") var account: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = account
            try await withAdministration(data) { administration in
                let account = try await administration.find(reference)
                print("""
                    id:       \(account.id)
                    username: \(account.username)
                    email:    \(account.email)
                    blocked:  \(account.blocked ? "yes" : "no")
                    created:  \(StrapiTimestamp.string(from: account.createdAt))
                    updated:  \(StrapiTimestamp.string(from: account.updatedAt))
                    """)
            }
        }
    }

    struct ResetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-password",
            abstract: "Give an account a new password (a random one, printed once, unless --password is given)."
        )
        @Argument(help: "An id, a username or an email.") var account: String
        @Option(help: "The new password (visible in the shell's history; leave it out to get a random one).") var password: String?
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (reference, password) = (account, password)
            try await withAdministration(data) { administration in
                let account = try await administration.find(reference)
                let newPassword = try await administration.resetPassword(reference, to: password)
                print("Password of \(account.username) (id \(account.id)) reset.")
                if password == nil { print("New password: \(newPassword)") }
            }
        }
    }

    struct Block: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Block an account: no login, its tokens and sessions stop working.")
        @Argument(help: "An id, a username or an email.") var account: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = account
            try await withAdministration(data) { administration in
                let account = try await administration.setBlocked(reference, true)
                print("Blocked \(account.username) (id \(account.id)).")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account and everything it holds in every app (todos, diary, posts and comments, products and their images, board posts). Cannot be undone."
        )
        @Argument(help: "An id, a username or an email.") var account: String
        @Flag(help: "Really delete: without it nothing is deleted.") var yes = false
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (reference, confirmed) = (account, yes)
            try await withAdministration(data) { administration in
                let account = try await administration.find(reference)
                guard confirmed else {
                    print("This deletes \(account.username) (id \(account.id), \(account.email)) and everything it holds. Run again with --yes to do it.")
                    throw ExitCode(1)
                }
                _ = try await administration.delete(reference)
                print("Deleted \(account.username) (id \(account.id)) and everything it held.")
            }
        }
    }

    struct Unblock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let a blocked account in again.")
        @Argument(help: "An id, a username or an email.") var account: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = account
            try await withAdministration(data) { administration in
                let account = try await administration.setBlocked(reference, false)
                print("Unblocked \(account.username) (id \(account.id)).")
            }
        }
    }
}

/// Opens the database (migrated), runs `body` with the administration, and turns "no such account" into a
/// plain error message and exit code.
private func withAdministration(_ data: DataOptions, _ body: @escaping @Sendable (AccountAdministration) async throws -> Void) async throws {
    let configuration = try data.configuration()
    do {
        try await withDatabase(configuration) { database in
            try await database.prepare(configuration)
            try await body(AccountAdministration(database: database, configuration: configuration))
        }
    } catch let error as AccountAdministrationError {
        throw ValidationError(error.description)
    }
}

extension AccountSummary {
    var line: String {
        "\(id)\t\(username)\t\(email)\t\(blocked ? "blocked" : "active")\t\(StrapiTimestamp.string(from: createdAt))"
    }
}
