import Foundation
import SproutWire

/// One browser session of the signed-in account, as `GET /users/me/sessions` lists it.
public struct AccountSession: Sendable, Equatable, Identifiable {
    /// Names the session for `CommunityClient.endSession(id:)`.
    public let id: String
    /// The browser's `User-Agent` when it signed in, if it sent one.
    public let device: String?
    /// The address it signed in from.
    public let ipAddress: String?
    public let createdAt: Date
    /// When it was last used (kept to the minute); nil for sessions from before Sprout recorded it.
    public let lastSeenAt: Date?
    public let expiresAt: Date
    /// Whether it is the session making the request (never, from an app: apps use tokens).
    public let isCurrent: Bool
}

/// What `PUT /users/me` answers: the account as it now is, and where a confirmation went when the email address
/// is to change (it changes once that mail's link is used).
public struct ProfileChange: Sendable, Equatable {
    public let user: CommunityUser
    public let emailConfirmationSentTo: String?
}

/// The account's own settings beyond sign-up and login: a forgotten password, email confirmation, sessions,
/// profile and deletion (Strapi v3's reset routes and Sprout's own).
extension CommunityClient {
    /// `POST /auth/forgot-password`: a reset link is mailed to the account with this address, if there is one; the
    /// answer is the same either way.
    /// - Throws: 400 `Auth.form.error.email.format`, 429 after too many mails asked for.
    public func requestPasswordReset(email: String) async throws(APIError) {
        _ = try await client.send(Self.answer(.post, "/auth/forgot-password", form: [("email", email)], as: StrapiOKJSON.self))
    }

    /// `POST /auth/reset-password`: sets the password with the code from the mail and signs in; every other token
    /// and session of the account ends.
    /// - Throws: 400 `Auth.form.error.code.provide` for an unknown, used or expired code.
    public func resetPassword(code: String, password: String, confirmation: String) async throws(APIError) -> CommunityAuth {
        let fields = [("code", code), ("password", password), ("passwordConfirmation", confirmation)]
        return try await client.send(Request(method: .post, path: "/auth/reset-password", body: .form(fields)) { data in
            try JSONDecoder().decode(StrapiAuthJSON.self, from: data).communityAuth()
        })
    }

    /// `POST /auth/send-email-confirmation`: mails the confirmation link again (only an unconfirmed account gets one).
    public func resendEmailConfirmation(email: String) async throws(APIError) {
        _ = try await client.send(Self.answer(.post, "/auth/send-email-confirmation", form: [("email", email)], as: StrapiEmailSentJSON.self))
    }

    /// `GET /users/me/sessions`: the account's browser sessions, most recently used first.
    public func sessions() async throws(APIError) -> [AccountSession] {
        try await client.send(Request(path: "/users/me/sessions") { data in
            try JSONDecoder().decode([AccountSessionJSON].self, from: data).map { session in
                AccountSession(
                    id: session.id, device: session.device, ipAddress: session.ipAddress,
                    createdAt: try CommunityWire.date(session.createdAt, "session \(session.id)"),
                    lastSeenAt: try session.lastSeenAt.map { try CommunityWire.date($0, "session \(session.id)") },
                    expiresAt: try CommunityWire.date(session.expiresAt, "session \(session.id)"), isCurrent: session.current
                )
            }
        })
    }

    /// `DELETE /users/me/sessions/{id}`: ends one session (404 when the account has none such).
    public func endSession(id: String) async throws(APIError) {
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
        _ = try await client.send(Self.answer(.delete, "/users/me/sessions/\(escaped)", as: StrapiOKJSON.self))
    }

    /// `DELETE /users/me/sessions`: every other session and every token issued before now stop working, on every
    /// server; the token making the call keeps working.
    public func signOutEverywhere() async throws(APIError) {
        _ = try await client.send(Self.answer(.delete, "/users/me/sessions", as: StrapiOKJSON.self))
    }

    /// `PUT /users/me`: a new username (at once) and/or email address (once its mailed link is used).
    /// - Throws: 400 `Auth.form.error.username.taken`, `…email.taken`, `…format`.
    public func updateProfile(username: String? = nil, email: String? = nil) async throws(APIError) -> ProfileChange {
        let fields = [("username", username), ("email", email)].compactMap { name, value in value.map { (name, $0) } }
        return try await client.send(Request(method: .put, path: "/users/me", body: .form(fields)) { data in
            let answer = try JSONDecoder().decode(ProfileAnswerJSON.self, from: data)
            return ProfileChange(user: try answer.user.communityUser(), emailConfirmationSentTo: answer.emailConfirmationSentTo)
        })
    }

    /// `DELETE /users/me`: deletes the account and everything it holds in every app, after checking the password.
    /// - Throws: 400 `Auth.form.error.invalid` for a wrong password, 429 after too many.
    public func deleteAccount(password: String) async throws(APIError) {
        _ = try await client.send(Self.answer(.delete, "/users/me", form: [("password", password)], as: StrapiOKJSON.self))
    }

    private static func answer<Wire: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, form: [(String, String)]? = nil, as _: Wire.Type
    ) -> Request<Wire> {
        Request(method: method, path: path, body: form.map { .form($0) }) { data in try JSONDecoder().decode(Wire.self, from: data) }
    }
}

/// `PUT /users/me`'s answer.
private struct ProfileAnswerJSON: Decodable {
    let user: StrapiUserJSON
    let emailConfirmationSentTo: String?
}
