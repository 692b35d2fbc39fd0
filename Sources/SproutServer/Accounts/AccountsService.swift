import CoreMetrics
import Foundation

/// What an account has written, for the Strapi user answers that list it (`posts`, `comments`, shallow).
/// Community provides it; Accounts does not know about posts.
protocol AccountActivity: Sendable {
    func activity(ofAccount id: Int) async throws -> AccountActivitySummary
}

struct AccountActivitySummary: Sendable {
    var posts: [ShallowPost] = []
    var comments: [ShallowComment] = []
}

/// Sign-up, login and password changes: the rules of Strapi's users-permissions plugin, used by the API and by
/// the web app's forms alike.
struct AccountsService: Sendable {
    let accounts: SQLAccountRepository
    let tokens: AccountTokens
    let throttle: LoginThrottle
    let addressLimit: AddressRateLimit
    let hasher: PasswordHasher
    let clock: WallClock
    /// Mails for resets and confirmations.
    let recovery: AccountRecovery
    /// `EMAIL_CONFIRMATION_REQUIRED`: new accounts start unconfirmed, are mailed a confirmation and cannot log in
    /// before it.
    var emailConfirmationRequired = false
    /// Wrong passwords, at login or at a password change (off: counted nowhere).
    var loginFailures = Counter(label: "sprout_login_failures_total", factory: NOOPMetricsHandler.instance)

    /// A new account, when the address is under its hourly sign-up limit (checked first, so probing which names
    /// are taken counts too) and the username and email are free.
    func register(_ input: AccountInput.Registration, address: String) async throws -> Account {
        guard try await addressLimit.claim(.signUp, address: address, at: clock.now) else { throw StrapiError.tooManySignUps }
        try await checkAvailable(username: input.username, email: input.email)
        let hash = try await hasher.hash(input.password)
        guard let account = try await accounts.create(
            username: input.username, email: input.email, passwordHash: hash, confirmed: !emailConfirmationRequired,
            at: clock.now.truncatedToMilliseconds
        ) else {
            // Someone took the name or the address while the password was being hashed.
            try await checkAvailable(username: input.username, email: input.email)
            throw StrapiError.usernameTaken
        }
        if !account.confirmed {
            try await recovery.sendConfirmation(to: account, address: account.email)
        }
        return account
    }

    /// The account the identifier and password belong to. The attempt is counted by the login limiter before
    /// the password is checked, against the account it names (username and email share one budget); an unknown
    /// identifier costs a bcrypt check too, so timing does not reveal which accounts exist.
    func logIn(_ input: AccountInput.Login, address: String) async throws -> Account {
        let account = input.isEmail ? try await accounts.find(email: input.identifier) : try await accounts.find(username: input.identifier)
        let subject = account.map { LoginThrottle.Subject.account($0.id) } ?? .unknownIdentifier(input.identifier)
        guard let attempt = try await throttle.claimAttempt(for: subject, address: address, at: clock.now) else {
            throw StrapiError.rateLimited
        }
        let matches = try await hasher.verify(input.password, against: account?.passwordHash ?? PasswordHasher.decoyHash)
        guard let account, matches else {
            loginFailures.increment()
            throw StrapiError.invalidCredentials  // the attempt stays counted
        }
        try await throttle.succeeded(attempt)
        guard !account.isBlocked else { throw StrapiError.blocked }
        guard account.confirmed || !emailConfirmationRequired else { throw StrapiError.notConfirmed }
        try await accounts.recordLogin(id: account.id, at: clock.now.truncatedToMilliseconds)
        return account
    }

    /// Checks the account's password again before something that cannot be undone (deleting the account), counted
    /// by the login limiter like a login.
    func confirmPassword(_ password: String, of account: Account, address: String) async throws {
        guard let attempt = try await throttle.claimAttempt(for: .account(account.id), address: address, at: clock.now) else {
            throw StrapiError.rateLimited
        }
        guard try await hasher.verify(password, against: account.passwordHash) else {
            loginFailures.increment()
            throw StrapiError.invalidCredentials
        }
        try await throttle.succeeded(attempt)
    }

    /// Checks the current password (each check counts towards the limiter under the account, before it is
    /// made, so a stolen token cannot be used to guess it) and stores the new one. Every other token and web
    /// session of the account ends; the caller's own keeps working, as the SeSAC app expects: it keeps its token
    /// after a change.
    func changePassword(of account: Account, calling credential: Caller.Credential, _ input: AccountInput.PasswordChange, address: String) async throws -> Account {
        try await confirmPassword(input.current, of: account, address: address)
        let hash = try await hasher.hash(input.new)
        guard let updated = try await accounts.updatePassword(
            id: account.id, passwordHash: hash, keeping: KeptCredential(credential), at: clock.now.truncatedToMilliseconds
        ) else {
            throw StrapiError.invalidToken
        }
        return updated
    }

    private func checkAvailable(username: String, email: String) async throws {
        if try await accounts.find(email: email) != nil { throw StrapiError.emailTaken }
        if try await accounts.find(username: username) != nil { throw StrapiError.usernameTaken }
    }
}
