import Foundation

/// Where the data lives and the key its secrets are sealed with.
///
/// | variable | default |
/// |---|---|
/// | `DATA_DIR` (flag `--data-dir` wins) | `./data`: the SQLite database, the market's image files, `secrets.key` |
/// | `DATABASE_URL` (`postgres://…`) | unset: SQLite in `DATA_DIR` |
/// | `SECRETS_KEY` (32 bytes or more) | unset: `secrets.key` in `DATA_DIR`, made on first start |
///
/// `SECRETS_KEY` is here rather than with accounts: it seals vendor secrets and the generated JWT key alike, and
/// falls back to a file in the data directory.
public struct DataSettings: Sendable {
    /// Holds the SQLite database (unless `databaseURL` points elsewhere), uploads and the generated secrets key.
    public var directory: String
    /// `postgres://…` switches from the embedded SQLite database to PostgreSQL.
    @RedactedPassword public var databaseURL: String?
    /// The key (any text of 32 bytes or more) that seals vendor secrets and the generated JWT key in the database.
    /// Every process on one database needs the same key, so several `sprout serve` on one PostgreSQL set it (or
    /// share the data directory's file).
    @Redacted public var secretsKey: String?

    static let variables = ["DATA_DIR", "DATABASE_URL", "SECRETS_KEY"]

    /// An empty `databaseURL` is none.
    public init(directory: String = "./data", databaseURL: String? = nil, secretsKey: String? = nil) {
        self.directory = directory
        self.databaseURL = databaseURL.flatMap { $0.isEmpty ? nil : $0 }
        self.secretsKey = secretsKey
    }

    /// Where the database is, chosen from `databaseURL` and `directory`.
    public var database: DatabaseSettings {
        if let databaseURL {
            return .postgres(url: databaseURL)
        }
        return .sqlite(path: URL(fileURLWithPath: directory).appendingPathComponent("sprout.sqlite").path)
    }

    /// The settings `reader` describes; `directory` (from `--data-dir`) wins over `DATA_DIR`.
    static func read(from reader: EnvironmentReader, directory: String? = nil) throws -> DataSettings {
        let databaseURL = reader.string("DATABASE_URL")
        if let databaseURL {
            guard databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://") else {
                throw ConfigurationError("DATABASE_URL must start with postgres:// (leave it unset for the embedded SQLite database)")
            }
            guard let components = URLComponents(string: databaseURL), let host = components.host, !host.isEmpty else {
                // The password never reaches the message, not even of a URL too broken to parse.
                throw ConfigurationError(
                    "DATABASE_URL is not a valid URL (postgres://user:password@host:port/database, with special characters "
                        + "percent-encoded): \(SecretRedaction.redactingPassword(in: databaseURL))"
                )
            }
        }
        let secretsKey = try reader.secret(
            "SECRETS_KEY", minimumBytes: 32, hint: "e.g. `openssl rand -base64 32`", whenUnset: "have a key file made in the data directory"
        )
        return DataSettings(directory: directory ?? reader.string("DATA_DIR") ?? "./data", databaseURL: databaseURL, secretsKey: secretsKey)
    }
}
