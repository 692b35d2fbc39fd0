/// The accounts pieces every service shares, made once per application from its configuration.
struct AccountsParts: Sendable {
    let repository: SQLAccountRepository
    let tokens: AccountTokens
    let sessions: WebSessions
    let authenticator: AccountAuthenticator
    let service: AccountsService
    let addressLimit: AddressRateLimit

    init(
        _ configuration: SproutConfiguration, executor: any SQLExecutor, sealer: SecretSealer, clock: WallClock = .system,
        metrics: SproutMetrics = .off
    ) {
        repository = SQLAccountRepository(executor: executor)
        tokens = AccountTokens(configuredSecret: configuration.accounts.jwtSecret, secrets: ServerSecrets(executor: executor, sealer: sealer), clock: clock)
        sessions = WebSessions(executor: executor, clock: clock)
        addressLimit = AddressRateLimit(ledger: RateLimitLedger(executor: executor), perHour: configuration.accounts.signUpsPerAddressPerHour)
        authenticator = AccountAuthenticator(
            accounts: repository, tokens: tokens, sessions: sessions, boardAPIToken: configuration.board.apiToken
        )
        service = AccountsService(
            accounts: repository, tokens: tokens, throttle: LoginThrottle(executor: executor), addressLimit: addressLimit,
            hasher: PasswordHasher(cost: configuration.accounts.passwordHashCost), clock: clock,
            loginFailures: metrics.accounts.loginFailures
        )
    }
}
