import Foundation

/// What `sprout account …` shows of an account: never its password hash.
public struct AccountSummary: Sendable, Equatable {
    public let id: Int
    public let username: String
    public let email: String
    public let blocked: Bool
    public let createdAt: Date
    public let updatedAt: Date
}

public enum AccountAdministrationError: Error, CustomStringConvertible, Equatable {
    case notFound(String)
    case weakPassword(String)

    public var description: String {
        switch self {
        case .notFound(let reference): "No account matches '\(reference)' (give an id, a username or an email)."
        case .weakPassword(let reason): reason
        }
    }
}

/// The administrator's commands on accounts (`sprout account list|show|reset-password|block|unblock`), over the
/// same repository the API uses.
public struct AccountAdministration: Sendable {
    let accounts: SQLAccountRepository
    let hasher: PasswordHasher
    let deletion: AccountDeletion

    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        accounts = SQLAccountRepository(executor: database.executor)
        hasher = PasswordHasher(cost: configuration.accounts.passwordHashCost)
        let images: any MarketImageStorage = switch configuration.market.imageStorage {
        case .files: FileImageStorage(dataDirectory: configuration.data.directory)
        case .database: DatabaseImageStorage(executor: database.executor)
        }
        deletion = AccountDeletion(accounts: accounts, images: images, logger: makeLogger(level: configuration.server.logLevel))
    }

    /// With the default settings but bcrypt's cost: for tools that find, reset or block (deletion would look for
    /// image files in the default data directory).
    public init(database: SproutDatabase, passwordHashCost: UInt8 = 10) {
        var configuration = SproutConfiguration()
        configuration.accounts.passwordHashCost = passwordHashCost
        self.init(database: database, configuration: configuration)
    }

    /// Deletes the account and everything it holds in every app, with its image files (as `DELETE /users/me`).
    public func delete(_ reference: String) async throws -> AccountSummary {
        let account = try await account(reference)
        guard try await deletion.delete(account) else { throw AccountAdministrationError.notFound(reference) }
        return AccountSummary(account)
    }

    /// Accounts in id order after `afterID`, at most `limit`.
    public func list(afterID: Int = 0, limit: Int = 100) async throws -> [AccountSummary] {
        try await accounts.list(afterID: afterID, limit: limit).map(AccountSummary.init)
    }

    /// The account named by an id, a username or an email address (any case).
    public func find(_ reference: String) async throws -> AccountSummary {
        AccountSummary(try await account(reference))
    }

    /// Sets a new password (a random one when `newPassword` is nil) and returns it. Every token and web session
    /// of the account ends.
    public func resetPassword(_ reference: String, to newPassword: String? = nil) async throws -> String {
        let account = try await account(reference)
        let password = newPassword ?? ServerSecrets.randomToken(byteCount: 12)
        guard AccountInput.isAcceptablePassword(password) else {
            throw AccountAdministrationError.weakPassword(
                "A password must be \(AccountInput.passwordBytes.lowerBound) to \(AccountInput.passwordBytes.upperBound) bytes long, with at most three '$'."
            )
        }
        _ = try await accounts.updatePassword(
            id: account.id, passwordHash: try await hasher.hash(password), keeping: .none, at: Date().truncatedToMilliseconds
        )
        return password
    }

    /// Blocks (or unblocks) the account: it can no longer log in (or can again). Either way every token and web
    /// session of the account ends, so an unblock does not bring back the tokens from before the block.
    public func setBlocked(_ reference: String, _ blocked: Bool) async throws -> AccountSummary {
        let account = try await account(reference)
        guard let updated = try await accounts.setBlocked(id: account.id, blocked, at: Date().truncatedToMilliseconds) else {
            throw AccountAdministrationError.notFound(reference)
        }
        return AccountSummary(updated)
    }

    /// The account named by an id, a username or an email (`notFound` otherwise).
    func account(_ reference: String) async throws -> Account {
        if let id = Int(reference), let account = try await accounts.find(id: id) { return account }
        if let account = try await accounts.find(username: reference) { return account }
        if let account = try await accounts.find(email: reference) { return account }
        throw AccountAdministrationError.notFound(reference)
    }
}

extension AccountSummary {
    init(_ account: Account) {
        self.init(
            id: account.id, username: account.username, email: account.email, blocked: account.isBlocked,
            createdAt: account.createdAt, updatedAt: account.updatedAt
        )
    }
}
