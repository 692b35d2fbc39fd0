/// How accounts sign in and sign up, and whose email addresses others see.
///
/// | variable | default |
/// |---|---|
/// | `JWT_SECRET` (32 bytes or more) | unset: a key generated once and kept (sealed) in the database |
/// | `SIGNUPS_PER_ADDRESS_PER_HOUR` | `20` (0 turns the limit off; at most 100000) |
/// | `EMAIL_VISIBILITY` | `owner` (or `everyone`) |
///
/// `passwordHashCost` is set from code only (tests lower it).
public struct AccountSettings: Sendable {
    /// The key that signs account tokens. Unset: a key generated once is kept in the database, so every process
    /// on it accepts the others' tokens.
    @Redacted public var jwtSecret: String?
    /// bcrypt's cost for new password hashes (Strapi's 10). Tests lower it; the work doubles with each step.
    public var passwordHashCost: UInt8 = 10
    /// Sign-ups, and separately vendor creations, one client address may make per hour (20; 0 turns the limit off).
    public var signUpsPerAddressPerHour = 20
    /// `owner` shows an account's email address whole only to the account itself, masked (`a***@example.com`) in
    /// every answer about its posts that others read; `everyone` shows it to all, as the original servers did.
    public var emailVisibility = EmailVisibility.owner

    static let variables = ["JWT_SECRET", "SIGNUPS_PER_ADDRESS_PER_HOUR", "EMAIL_VISIBILITY"]

    public init() {}

    static func read(from reader: EnvironmentReader) throws -> AccountSettings {
        var settings = AccountSettings()
        settings.jwtSecret = try reader.secret(
            "JWT_SECRET", minimumBytes: 32, hint: "HS256 keys shorter than the hash are weak", whenUnset: "have one generated"
        )
        settings.signUpsPerAddressPerHour = try reader.int("SIGNUPS_PER_ADDRESS_PER_HOUR", in: 0...100_000, default: settings.signUpsPerAddressPerHour, zeroMeans: "no limit")
        settings.emailVisibility = try reader.choice("EMAIL_VISIBILITY", of: EmailVisibility.self) ?? settings.emailVisibility
        return settings
    }
}
