import ArgumentParser
import Foundation
import SproutServer
import SproutWire

/// `sprout account …`: the administrator's view of the accounts every app shares.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "Create, list, inspect, reset, block or delete accounts, and give them roles. Every change is in the audit log.",
        subcommands: [Create.self, List.self, Show.self, Role.self, ResetPassword.self, SendPasswordReset.self, SignOutEverywhere.self, Block.self, Unblock.self, Delete.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an account (confirmed), with a role; the password is random and printed once unless --password is given."
        )
        @Argument(help: "The username.") var name: String
        @Option(help: "The email address.") var email: String
        @Option(help: "The password (visible in the shell's history; leave it out to get a random one).") var password: String?
        @Option(help: "user, moderator or admin.") var role: AccountRole = .user
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (name, email, password, role) = (name, email, password, role)
            try await withAdministration(data) { administration in
                let made = try await administration.create(username: name, email: email, password: password, role: role, by: .commandLine())
                print("Created \(made.account.username) (id \(made.account.id), \(made.account.role.rawValue)).")
                if password == nil { print("Password: \(made.password)") }
            }
        }
    }

    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give an account a role: user, moderator (moderates content) or admin (everything). Holds on every server from its next request."
        )
        @Argument(help: "An id, a username or an email.") var account: String
        @Argument(help: "user, moderator or admin.") var role: AccountRole
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (reference, role) = (account, role)
            try await withAdministration(data) { administration in
                let account = try await administration.setRole(reference, role, by: .commandLine())
                print("\(account.username) (id \(account.id)) is now \(account.role.rawValue).")
            }
        }
    }

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
                    role:     \(account.role.rawValue)
                    blocked:  \(account.blocked ? "yes" + (account.blockedReason.map { " (\($0))" } ?? "") : "no")
                    last login: \(account.lastLoginAt.map(StrapiTimestamp.string(from:)) ?? "never")
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
                let newPassword = try await administration.resetPassword(reference, to: password, by: .commandLine())
                print("Password of \(account.username) (id \(account.id)) reset.")
                if password == nil { print("New password: \(newPassword)") }
            }
        }
    }

    struct SendPasswordReset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send-password-reset",
            abstract: "Mail the account a password-reset link (the running server sends it; without SMTP_URL see `sprout mail list`)."
        )
        @Argument(help: "An id, a username or an email.") var account: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = account
            try await withAdministration(data) { administration in
                let account = try await administration.sendPasswordReset(reference, by: .commandLine())
                print("A reset mail to \(account.email) is in the outbox.")
            }
        }
    }

    struct SignOutEverywhere: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign-out-everywhere", abstract: "End every token and browser session of an account."
        )
        @Argument(help: "An id, a username or an email.") var account: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let reference = account
            try await withAdministration(data) { administration in
                let account = try await administration.signOutEverywhere(reference, by: .commandLine())
                print("Signed \(account.username) (id \(account.id)) out everywhere.")
            }
        }
    }

    struct Block: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Block an account: no login, its tokens and sessions stop working.")
        @Argument(help: "An id, a username or an email.") var account: String
        @Option(help: "Why: shown to the account at its next login.") var reason: String?
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (reference, reason) = (account, reason)
            try await withAdministration(data) { administration in
                let account = try await administration.setBlocked(reference, true, reason: reason, by: .commandLine())
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
                _ = try await administration.delete(reference, by: .commandLine())
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
                let account = try await administration.setBlocked(reference, false, by: .commandLine())
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
        "\(id)\t\(username)\t\(email)\t\(role.rawValue)\t\(blocked ? "blocked" : "active")\t\(StrapiTimestamp.string(from: createdAt))"
    }
}

extension AccountRole: ExpressibleByArgument {}
