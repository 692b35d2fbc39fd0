import Logging

/// The accounts pieces every service shares, made once per application from its configuration.
struct AccountsParts: Sendable {
    let repository: SQLAccountRepository
    let tokens: AccountTokens
    let sessions: WebSessions
    let authenticator: AccountAuthenticator
    let service: AccountsService
    let addressLimit: AddressRateLimit
    let recovery: AccountRecovery

    init(
        _ configuration: SproutConfiguration, executor: any SQLExecutor, sealer: SecretSealer, mailer: Mailer? = nil,
        clock: WallClock = .system, metrics: SproutMetrics = .off
    ) {
        repository = SQLAccountRepository(executor: executor)
        tokens = AccountTokens(configuredSecret: configuration.accounts.jwtSecret, secrets: ServerSecrets(executor: executor, sealer: sealer), clock: clock)
        sessions = WebSessions(executor: executor, clock: clock)
        addressLimit = AddressRateLimit(ledger: RateLimitLedger(executor: executor), perHour: configuration.accounts.signUpsPerAddressPerHour)
        authenticator = AccountAuthenticator(
            accounts: repository, tokens: tokens, sessions: sessions, boardAPIToken: configuration.board.apiToken
        )
        let hasher = PasswordHasher(cost: configuration.accounts.passwordHashCost)
        recovery = AccountRecovery(
            accounts: repository, codes: AccountCodes(executor: executor), ledger: RateLimitLedger(executor: executor), hasher: hasher,
            mailer: mailer ?? Mailer(configuration.mail, logger: Logger(label: "sprout.mail")),
            publicURL: configuration.server.publicURL, clock: clock
        )
        service = AccountsService(
            accounts: repository, tokens: tokens, throttle: LoginThrottle(executor: executor), addressLimit: addressLimit,
            hasher: hasher, clock: clock, recovery: recovery,
            emailConfirmationRequired: configuration.accounts.emailConfirmationRequired,
            loginFailures: metrics.accounts.loginFailures
        )
    }
}
