/// The answers of the account routes Strapi v3's users-permissions plugin adds to sign-up and login (reset,
/// confirmation), and Sprout's own for sessions and deletion.

/// `POST /auth/forgot-password`: `{"ok": true}`, whether or not the address has an account.
public struct StrapiOKJSON: Codable, Sendable, Equatable {
    public var ok: Bool

    public init(ok: Bool = true) {
        self.ok = ok
    }
}

/// `POST /auth/send-email-confirmation`: `{"email": …, "sent": true}`, whether or not a mail went out.
public struct StrapiEmailSentJSON: Codable, Sendable, Equatable {
    public var email: String
    public var sent: Bool

    public init(email: String, sent: Bool = true) {
        self.email = email
        self.sent = sent
    }
}

/// `POST /auth/local/register` while email confirmation is required: the new user, and no token until the address
/// is confirmed.
public struct StrapiPendingUserJSON: Codable, Sendable, Equatable {
    public var user: StrapiUserJSON

    public init(user: StrapiUserJSON) {
        self.user = user
    }
}

/// One web session of the signed-in account (`GET /users/me/sessions`).
public struct AccountSessionJSON: Codable, Sendable, Equatable {
    /// Names the session for `DELETE /users/me/sessions/{id}`.
    public var id: String
    /// The browser's `User-Agent` when it signed in, if it sent one.
    public var device: String?
    /// The client address it signed in from.
    public var ipAddress: String?
    /// ISO 8601 with milliseconds, as Strapi writes times.
    public var createdAt: String
    public var lastSeenAt: String?
    public var expiresAt: String
    /// Whether this is the session making the request.
    public var current: Bool

    public init(
        id: String, device: String?, ipAddress: String?, createdAt: String, lastSeenAt: String?, expiresAt: String, current: Bool
    ) {
        self.id = id
        self.device = device
        self.ipAddress = ipAddress
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.current = current
    }
}
