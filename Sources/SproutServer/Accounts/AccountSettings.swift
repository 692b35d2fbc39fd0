/// How accounts sign in and sign up, and whose email addresses others see.
///
/// | variable | default |
/// |---|---|
/// | `JWT_SECRET` (32 bytes or more) | unset: a key generated once and kept (sealed) in the database |
/// | `SIGNUPS_PER_ADDRESS_PER_HOUR` | `20` (0 turns the limit off; at most 100000) |
/// | `EMAIL_VISIBILITY` | `owner` (or `everyone`) |
/// | `EMAIL_CONFIRMATION_REQUIRED` | `false`: new accounts are confirmed at once (Strapi's default, and what the seed apps expect) |
/// | `EMAIL_CONFIRMATION_REDIRECT` | `/account?confirmed=1`: where a confirmation link lands (a path here, or an http(s) URL) |
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

    /// New accounts must confirm their email address by mail before they can log in (Strapi's
    /// `email_confirmation`); their sign-up answers `{user}` without a token, as Strapi's does.
    public var emailConfirmationRequired = false
    /// Where `GET /auth/email-confirmation` sends the browser after confirming (Strapi's
    /// `email_confirmation_redirection`).
    public var emailConfirmationRedirect = "/account?confirmed=1"

    static let variables = [
        "JWT_SECRET", "SIGNUPS_PER_ADDRESS_PER_HOUR", "EMAIL_VISIBILITY", "EMAIL_CONFIRMATION_REQUIRED", "EMAIL_CONFIRMATION_REDIRECT",
    ]

    public init() {}

    static func read(from reader: EnvironmentReader) throws -> AccountSettings {
        var settings = AccountSettings()
        settings.jwtSecret = try reader.secret(
            "JWT_SECRET", minimumBytes: 32, hint: "HS256 keys shorter than the hash are weak", whenUnset: "have one generated"
        )
        settings.signUpsPerAddressPerHour = try reader.int("SIGNUPS_PER_ADDRESS_PER_HOUR", in: 0...100_000, default: settings.signUpsPerAddressPerHour, zeroMeans: "no limit")
        settings.emailVisibility = try reader.choice("EMAIL_VISIBILITY", of: EmailVisibility.self) ?? settings.emailVisibility
        settings.emailConfirmationRequired = try reader.bool("EMAIL_CONFIRMATION_REQUIRED", default: false)
        if let redirect = reader.string("EMAIL_CONFIRMATION_REDIRECT") {
            guard redirect.hasPrefix("/") && !redirect.hasPrefix("//") || (try? reader.httpURL("EMAIL_CONFIRMATION_REDIRECT")) != nil else {
                throw ConfigurationError("EMAIL_CONFIRMATION_REDIRECT must be a path on this site (/account) or an http(s) URL, got '\(redirect)'")
            }
            settings.emailConfirmationRedirect = redirect
        }
        return settings
    }
}
