import Foundation

/// Everything `buildApplication` needs, gathered from flags and the environment by the caller: one small settings
/// struct per part, each documenting the variables it reads and their defaults.
///
/// `fromEnvironment` is the one place settings enter. A value that cannot be used, or a variable under one of
/// Sprout's prefixes that is no setting (`UnknownSettings`), stops the start with a `ConfigurationError`; empty
/// values are unset. Tests build a configuration in code and change what they need.
public struct SproutConfiguration: Sendable {
    /// `HOST`, `PORT`, `PUBLIC_URL`, `MAX_BODY_SIZE`, `LOG_LEVEL`, `IDLE_TIMEOUT`, `REQUEST_TIMEOUT`, `TRUSTED_PROXIES`.
    public var server: ServerSettings
    /// `DATA_DIR`, `DATABASE_URL`, `DATABASE_POOLER`, `DATABASE_DIRECT_URL`, `SECRETS_KEY`.
    public var data: DataSettings
    /// `JWT_SECRET`, `SIGNUPS_PER_ADDRESS_PER_HOUR`, `EMAIL_VISIBILITY`.
    public var accounts: AccountSettings
    /// `COMMUNITY_LIST_MAX_ROWS`.
    public var community: CommunitySettings
    /// `MARKET_IMAGE_STORAGE`, `MARKET_MAX_IMAGE_BYTES`, `MARKET_UPLOADS_PER_HOUR`.
    public var market: MarketSettings
    /// `BOARD_API_TOKEN`.
    public var board: BoardSettings
    /// `DIARY_KEPT_VERSIONS` and the weather's `WEATHER_PROVIDER`, `OPENWEATHER_API_KEY`, `OPENWEATHER_BASE_URL`,
    /// `OPEN_METEO_BASE_URL`.
    public var diary: DiarySettings
    /// `BACKUP_EVERY`, `BACKUP_DIR`, `BACKUP_KEEP`.
    public var backup: BackupSettings
    /// `SMTP_URL`, `MAIL_FROM`.
    public var mail: MailSettings
    /// `AUDIT_RETENTION_DAYS`.
    public var admin: AdminSettings
    /// `EVENTS_STREAMS_PER_ACCOUNT`, `EVENTS_STREAMS_PER_ADDRESS`, `EVENTS_STREAMS_MAX`.
    public var events: EventsSettings

    public init(
        server: ServerSettings = ServerSettings(),
        data: DataSettings = DataSettings(),
        accounts: AccountSettings = AccountSettings(),
        community: CommunitySettings = CommunitySettings(),
        market: MarketSettings = MarketSettings(),
        board: BoardSettings = BoardSettings(),
        diary: DiarySettings = DiarySettings(),
        backup: BackupSettings = BackupSettings(),
        mail: MailSettings = MailSettings(),
        admin: AdminSettings = AdminSettings(),
        events: EventsSettings = EventsSettings()
    ) {
        self.server = server
        self.data = data
        self.accounts = accounts
        self.community = community
        self.market = market
        self.board = board
        self.diary = diary
        self.backup = backup
        self.mail = mail
        self.admin = admin
        self.events = events
    }

    /// The stems under which an unknown variable stops the start (`UnknownSettings`), for help texts.
    public static var guardedPrefixes: [String] { UnknownSettings.guardedPrefixes }

    /// Every variable Sprout reads; anything else under `UnknownSettings.guardedPrefixes` is refused.
    static let variables = ServerSettings.variables + DataSettings.variables + AccountSettings.variables
        + CommunitySettings.variables + MarketSettings.variables + BoardSettings.variables + DiarySettings.variables
        + BackupSettings.variables + MailSettings.variables + AdminSettings.variables + EventsSettings.variables

    /// Reads the environment (each struct's `read` names its variables); explicit arguments (from the command-line
    /// flags `--hostname`, `--port`, `--data-dir`, `--backup-every`) win over `HOST`, `PORT`, `DATA_DIR` and
    /// `BACKUP_EVERY`.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        hostname: String? = nil,
        port: Int? = nil,
        dataDirectory: String? = nil,
        backupEvery: String? = nil
    ) throws -> SproutConfiguration {
        try UnknownSettings.check(environment, known: variables)
        return try read(
            from: EnvironmentReader(environment), hostname: hostname, port: port, dataDirectory: dataDirectory, backupEvery: backupEvery
        )
    }

    static func read(
        from reader: EnvironmentReader, hostname: String? = nil, port: Int? = nil, dataDirectory: String? = nil,
        backupEvery: String? = nil
    ) throws -> SproutConfiguration {
        try SproutConfiguration(
            server: .read(from: reader, hostname: hostname, port: port),
            data: .read(from: reader, directory: dataDirectory),
            accounts: .read(from: reader),
            community: .read(from: reader),
            market: .read(from: reader),
            board: .read(from: reader),
            diary: .read(from: reader),
            backup: .read(from: reader, every: backupEvery),
            mail: .read(from: reader),
            admin: .read(from: reader),
            events: .read(from: reader)
        )
    }
}
