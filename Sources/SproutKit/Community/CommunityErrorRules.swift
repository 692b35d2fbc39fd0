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
}

/// How the community (and the `Session`'s account calls) sorts a failure: by the Strapi form message id when the
/// server sent one, else by status; no answer at all is `.other`, shown with the `APIError`'s sentence. The
/// server's English text stays in `serverMessage`, the id in `messageID`.
extension SproutError {
    static func communityKind(of error: APIError, messageID: String?) -> Kind {
        if let messageID { return communityKinds[messageID] ?? .otherFormError }
        switch error.statusCode {
        case 401: return .unauthorized
        case 403: return .forbidden
        case 404: return .notFound
        case 429: return .rateLimited
        default: return .other
        }
    }

    /// The kinds of the form message ids the community server sends.
    static let communityKinds: [String: Kind] = [
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
        "Auth.form.error.code.provide": .invalidCode,
        "Auth.form.error.params.provide": .otherFormError,
        "Auth.form.error.ratelimit": .rateLimited,
    ]

    /// The community's sentence: the kit's Korean one for the kind (a format error adds the server's text, which
    /// names the rule broken), else the server's own text.
    static func communityMessage(for kind: Kind, serverMessage: String?) -> String? {
        guard let sentence = communitySentence(for: kind) else { return serverMessage }
        if kind == .invalidUsername || kind == .invalidPassword, let serverMessage {
            return "\(sentence) (\(serverMessage))"
        }
        return sentence
    }

    /// The Korean sentence for a kind; nil where the server's text (or the generic one) says more.
    static func communitySentence(for kind: Kind) -> String? {
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
        case .invalidCode: "링크가 올바르지 않거나 만료되었습니다. 비밀번호 재설정을 다시 요청해 주세요."
        case .rateLimited: "로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요."
        case .unauthorized: "로그인이 만료되었습니다. 다시 로그인해 주세요."
        case .forbidden: "이 작업을 할 권한이 없습니다."
        case .notFound: "게시물이나 댓글을 찾을 수 없습니다."
        default: nil
        }
    }
}
