import Foundation

/// Where Sprout's mail goes (password resets, email confirmations).
///
/// | variable | default |
/// |---|---|
/// | `SMTP_URL` | unset: mails are kept in the outbox and written to the log, marked as not sent (`sprout mail list`) |
/// | `MAIL_FROM` | `Sprout <no-reply@HOST of PUBLIC_URL>` |
///
/// `SMTP_URL` is `smtp://user:password@host:port` (STARTTLS whenever the server offers it; port 587 by default) or
/// `smtps://…` (TLS from the first byte; port 465 by default). `?starttls=required` refuses to send over a
/// server that does not offer STARTTLS. User and password are percent-decoded. A password is only ever sent over
/// TLS, or to a server on this machine (a local relay).
public struct MailSettings: Sendable {
    public var smtp: SMTPServer?
    /// The `From` address, with an optional display name: `Sprout <no-reply@example.com>`.
    public var from: String?
    /// How often the outbox is looked at for mails other processes queued and retries that fell due (code only:
    /// tests shorten it).
    var pollInterval: Duration = .seconds(5)

    static let variables = ["SMTP_URL", "MAIL_FROM"]

    public init(smtp: SMTPServer? = nil, from: String? = nil) {
        self.smtp = smtp
        self.from = from
    }

    /// The sender: `MAIL_FROM`, or `no-reply@` the public host.
    func sender(publicURL: String) -> MailAddress {
        if let from, let address = MailAddress(parsing: from) { return address }
        let host = URLComponents(string: publicURL)?.host ?? "localhost"
        return MailAddress(name: "Sprout", address: "no-reply@" + (host.contains(".") ? host : host + ".localdomain"))
    }

    static func read(from reader: EnvironmentReader) throws -> MailSettings {
        var settings = MailSettings()
        if let url = reader.string("SMTP_URL") {
            settings.smtp = try SMTPServer(url: url)
        }
        if let from = reader.string("MAIL_FROM") {
            guard MailAddress(parsing: from) != nil else {
                throw ConfigurationError("MAIL_FROM must be an email address, optionally with a name (Sprout <no-reply@example.com>), got '\(from)'")
            }
            settings.from = from
        }
        return settings
    }
}

/// An SMTP server to send through, from `SMTP_URL`.
public struct SMTPServer: Sendable, Equatable, CustomStringConvertible {
    public enum Security: String, Sendable {
        /// TLS from the first byte (`smtps://`).
        case implicitTLS
        /// STARTTLS when the server offers it, plain otherwise (`smtp://`).
        case startTLSWhenOffered
        /// STARTTLS or nothing (`smtp://…?starttls=required`).
        case startTLSRequired
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    @Redacted public var password: String?

    public init(host: String, port: Int, security: Security, username: String? = nil, password: String? = nil) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
    }

    /// Parses `smtp://user:pass@host:port?starttls=required` or `smtps://…`. The message never quotes the URL, which
    /// may hold a password.
    public init(url text: String) throws {
        let refusal = ConfigurationError(
            "SMTP_URL must be smtp://user:password@host:port (add ?starttls=required to insist on TLS) or smtps://user:password@host:port"
        )
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw refusal
        }
        switch scheme {
        case "smtps":
            security = .implicitTLS
        case "smtp":
            let starttls = url.queryItems?.first { $0.name.lowercased() == "starttls" }?.value?.lowercased()
            switch starttls {
            case nil, "", "auto", "opportunistic": security = .startTLSWhenOffered
            case "required", "true", "yes": security = .startTLSRequired
            default: throw refusal
            }
        default:
            throw refusal
        }
        if let unknown = url.queryItems?.first(where: { $0.name.lowercased() != "starttls" }) {
            throw ConfigurationError("SMTP_URL has an unknown parameter '\(unknown.name)' (only starttls=required is known)")
        }
        guard (url.port ?? 1) > 0, (url.port ?? 1) < 65_536 else { throw refusal }
        self.host = host
        port = url.port ?? (security == .implicitTLS ? 465 : 587)
        username = url.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        password = url.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        if password != nil, username == nil {
            throw ConfigurationError("SMTP_URL has a password but no user name")
        }
    }

    /// For logs and `sprout mail list`: where, never the password.
    public var description: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let user = username.map { "\($0)@" } ?? ""
        let suffix = security == .startTLSRequired ? "?starttls=required" : ""
        return "\(scheme)://\(user)\(host):\(port)\(suffix)"
    }

    /// A relay on this machine may take a password without TLS: nobody else is on the wire.
    var isLoopback: Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        let isIPv4Loopback = octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
        return host == "localhost" || host == "::1" || host == "[::1]" || isIPv4Loopback
    }
}

/// An email address with an optional display name.
public struct MailAddress: Sendable, Equatable {
    public var name: String?
    public var address: String

    public init(name: String? = nil, address: String) {
        self.name = name
        self.address = address
    }

    /// `someone@example.com` or `Name <someone@example.com>`; nil for anything else (line breaks included, which
    /// would let a value write headers of its own).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.contains(where: { $0 == "\r" || $0 == "\n" }) else { return nil }
        if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
            let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            guard AccountInput.isEmailAddress(address) else { return nil }
            self.init(name: name.isEmpty ? nil : name, address: address)
        } else {
            guard AccountInput.isEmailAddress(trimmed) else { return nil }
            self.init(address: trimmed)
        }
    }
}
