import Foundation
import SproutWire

extension APIError {
    /// The Strapi error body the community service answered with, when this is a `.status` failure that has one:
    /// `{"statusCode", "error", "message"}` with `message` a string or the nested form messages.
    public var strapiError: StrapiErrorJSON? {
        guard case .status(_, _, _, let body) = self else { return nil }
        return try? JSONDecoder().decode(StrapiErrorJSON.self, from: body)
    }

    /// The form message id of a Strapi form error (`Auth.form.error.invalid`, `Auth.form.error.email.taken`, …).
    public var strapiMessageID: String? { strapiError?.formMessageID }

    /// This failure as the community screens tell it apart.
    public var communityError: CommunityError { CommunityError(self) }
}

/// A community failure sorted into what a screen handles differently, with a Korean sentence to show.
/// Made from any `APIError`; the server's own English text and form id stay available.
public struct CommunityError: Error, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// `Auth.form.error.invalid`: unknown identifier or wrong password (login, change password).
        case invalidCredentials
        /// `Auth.form.error.email.taken`.
        case emailTaken
        /// `Auth.form.error.username.taken`.
        case usernameTaken
        /// `Auth.form.error.email.format`.
        case invalidEmail
        /// `Auth.form.error.email.provide`: no email (register) or no identifier (login).
        case missingEmail
        /// `Auth.form.error.username.provide`.
        case missingUsername
        /// `Auth.form.error.password.provide`.
        case missingPassword
        /// `Auth.form.error.username.format`: too short or long, or shaped like an email; `serverMessage` says which.
        case invalidUsername
        /// `Auth.form.error.password.format`: too short or long, or too many `$`; `serverMessage` says which.
        case invalidPassword
        /// `Auth.form.error.password.matching`: the new password and its confirmation differ.
        case passwordsDoNotMatch
        /// `Auth.form.error.blocked`.
        case blocked
        /// `Auth.form.error.confirmed`.
        case unconfirmed
        /// `Auth.form.error.ratelimit` (429): too many failed logins; wait and try again.
        case rateLimited
        /// 401: the token is invalid or expired, or its account is blocked. The session signs out.
        case unauthorized
        /// 403: no token, or someone else's post or comment.
        case forbidden
        /// 404: the post or comment does not exist (any more).
        case notFound
        /// A form error whose id the kit does not know; `message` is the server's text.
        case otherFormError
        /// Anything else: no connection, an unreadable answer, another status.
        case other
    }

    /// What went wrong.
    public let kind: Kind
    /// The HTTP status, when the server answered.
    public let statusCode: Int?
    /// The Strapi form message id, when the server sent one.
    public let messageID: String?
    /// The server's own text (`message`, or the first nested form message), when it sent one.
    public let serverMessage: String?
    /// A sentence to show a person.
    public let message: String

    /// Sorts `error`.
    public init(_ error: APIError) {
        let strapi = error.strapiError
        statusCode = error.statusCode
        messageID = strapi?.formMessageID
        serverMessage = strapi?.readableMessage
        if let id = messageID {
            kind = Self.kinds[id] ?? .otherFormError
        } else {
            switch error.statusCode {
            case 401: kind = .unauthorized
            case 403: kind = .forbidden
            case 404: kind = .notFound
            case 429: kind = .rateLimited
            default: kind = .other
            }
        }
        switch (kind, serverMessage) {
        case (.invalidUsername, let detail?), (.invalidPassword, let detail?):
            // The server has several rules under one id; its text names the one broken.
            message = "\(Self.message(for: kind)!) (\(detail))"
        default:
            message = Self.message(for: kind) ?? serverMessage ?? error.message
        }
    }

    /// The kinds of the form message ids the community server sends.
    static let kinds: [String: Kind] = [
        "Auth.form.error.invalid": .invalidCredentials,
        "Auth.form.error.email.taken": .emailTaken,
        "Auth.form.error.username.taken": .usernameTaken,
        "Auth.form.error.email.format": .invalidEmail,
        "Auth.form.error.email.provide": .missingEmail,
        "Auth.form.error.username.provide": .missingUsername,
        "Auth.form.error.password.provide": .missingPassword,
        "Auth.form.error.username.format": .invalidUsername,
        "Auth.form.error.password.format": .invalidPassword,
        "Auth.form.error.password.matching": .passwordsDoNotMatch,
        "Auth.form.error.blocked": .blocked,
        "Auth.form.error.confirmed": .unconfirmed,
        "Auth.form.error.ratelimit": .rateLimited,
    ]

    /// The Korean sentence for a kind; nil where the server's text (or the generic one) says more.
    static func message(for kind: Kind) -> String? {
        switch kind {
        case .invalidCredentials: "아이디 또는 비밀번호가 올바르지 않습니다."
        case .emailTaken: "이미 사용 중인 이메일입니다."
        case .usernameTaken: "이미 사용 중인 사용자 이름입니다."
        case .invalidEmail: "올바른 이메일 주소를 입력해 주세요."
        case .missingEmail: "이메일(또는 사용자 이름)을 입력해 주세요."
        case .missingUsername: "사용자 이름을 입력해 주세요."
        case .missingPassword: "비밀번호를 입력해 주세요."
        case .invalidUsername: "사용자 이름의 형식이 올바르지 않습니다."
        case .invalidPassword: "비밀번호의 형식이 올바르지 않습니다."
        case .passwordsDoNotMatch: CommunityValidation.passwordMismatchMessage
        case .blocked: "차단된 계정입니다."
        case .unconfirmed: "이메일 인증을 마치지 않은 계정입니다."
        case .rateLimited: "로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요."
        case .unauthorized: "로그인이 만료되었습니다. 다시 로그인해 주세요."
        case .forbidden: "이 작업을 할 권한이 없습니다."
        case .notFound: "게시물이나 댓글을 찾을 수 없습니다."
        case .otherFormError, .other: nil
        }
    }
}
