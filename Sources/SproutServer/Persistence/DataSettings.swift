import Foundation

/// Where the data lives and the key its secrets are sealed with.
///
/// | variable | default |
/// |---|---|
/// | `DATA_DIR` (flag `--data-dir` wins) | `./data`: the SQLite database, the market's image files, `secrets.key` |
/// | `DATABASE_URL` (`postgres://…`) | unset: SQLite in `DATA_DIR` |
/// | `DATABASE_POOLER` (`transaction`) | unset: `DATABASE_URL` is PostgreSQL itself, or a pooler in session mode |
/// | `DATABASE_DIRECT_URL` (`postgres://…`) | unset; required with `DATABASE_POOLER=transaction`: PostgreSQL itself |
/// | `SECRETS_KEY` (32 bytes or more) | unset: `secrets.key` in `DATA_DIR`, made on first start |
///
/// `SECRETS_KEY` is here rather than with accounts: it seals vendor secrets and the generated JWT key alike, and
/// falls back to a file in the data directory.
public struct DataSettings: Sendable {
    /// Holds the SQLite database (unless `databaseURL` points elsewhere), uploads and the generated secrets key.
    public var directory: String
    /// `postgres://…` switches from the embedded SQLite database to PostgreSQL.
    @RedactedPassword public var databaseURL: String?
    /// PostgreSQL itself, when `databaseURL` names a pooler in transaction mode (`DATABASE_POOLER=transaction`).
    @RedactedPassword public var databaseDirectURL: String?
    /// The key (any text of 32 bytes or more) that seals vendor secrets and the generated JWT key in the database.
    /// Every process on one database needs the same key, so several `sprout serve` on one PostgreSQL set it (or
    /// share the data directory's file).
    @Redacted public var secretsKey: String?

    static let variables = ["DATA_DIR", "DATABASE_URL", "DATABASE_POOLER", "DATABASE_DIRECT_URL", "SECRETS_KEY"]

    /// An empty `databaseURL` is none. A `databaseDirectURL` says `databaseURL` is a transaction pooler.
    public init(directory: String = "./data", databaseURL: String? = nil, databaseDirectURL: String? = nil, secretsKey: String? = nil) {
        self.directory = directory
        self.databaseURL = databaseURL.flatMap { $0.isEmpty ? nil : $0 }
        self.databaseDirectURL = databaseDirectURL.flatMap { $0.isEmpty ? nil : $0 }
        self.secretsKey = secretsKey
    }

    /// Where the database is, chosen from `databaseURL` and `directory`.
    public var database: DatabaseSettings {
        if let databaseURL {
            return .postgres(url: databaseURL, pooler: databaseDirectURL.map(TransactionPooler.init(directURL:)))
        }
        return .sqlite(path: URL(fileURLWithPath: directory).appendingPathComponent("sprout.sqlite").path)
    }

    /// The settings `reader` describes; `directory` (from `--data-dir`) wins over `DATA_DIR`.
    static func read(from reader: EnvironmentReader, directory: String? = nil) throws -> DataSettings {
        let databaseURL = reader.string("DATABASE_URL")
        if let databaseURL { try checkPostgresURL(databaseURL, named: "DATABASE_URL") }
        let directURL = reader.string("DATABASE_DIRECT_URL")
        switch reader.string("DATABASE_POOLER")?.lowercased() {
        case "transaction":
            guard databaseURL != nil else { throw ConfigurationError("DATABASE_POOLER=transaction needs DATABASE_URL (the pooler)") }
            guard let directURL else {
                throw ConfigurationError(
                    "DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL: PostgreSQL itself, for migrations, live updates (LISTEN) and backups"
                )
            }
            try checkPostgresURL(directURL, named: "DATABASE_DIRECT_URL")
        case nil, "none", "session":
            if directURL != nil {
                throw ConfigurationError("DATABASE_DIRECT_URL is only used with DATABASE_POOLER=transaction; set both, or neither")
            }
        case let other?:
            throw ConfigurationError("DATABASE_POOLER must be transaction, session or none, got '\(other)'")
        }
        let secretsKey = try reader.secret(
            "SECRETS_KEY", minimumBytes: 32, hint: "e.g. `openssl rand -base64 32`", whenUnset: "have a key file made in the data directory"
        )
        return DataSettings(
            directory: directory ?? reader.string("DATA_DIR") ?? "./data", databaseURL: databaseURL, databaseDirectURL: directURL, secretsKey: secretsKey
        )
    }

    private static func checkPostgresURL(_ url: String, named name: String) throws {
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw ConfigurationError("\(name) must start with postgres:// (leave DATABASE_URL unset for the embedded SQLite database)")
        }
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            // The password never reaches the message, not even of a URL too broken to parse.
            throw ConfigurationError(
                "\(name) is not a valid URL (postgres://user:password@host:port/database, with special characters "
                    + "percent-encoded): \(SecretRedaction.redactingPassword(in: url))"
            )
        }
    }
}
