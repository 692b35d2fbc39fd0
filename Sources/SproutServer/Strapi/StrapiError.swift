import HTTPTypes
import Hummingbird
import SproutWire

/// An error in Strapi v3's shape (see `StrapiErrorJSON`): the plain boom payload, or the users-permissions form
/// error with its message id. Accounts and Community answer with these.
struct StrapiError: HTTPResponseError {
    let status: HTTPResponse.Status
    let body: StrapiErrorJSON

    static let forbidden = StrapiError(status: .forbidden, message: "Forbidden")
    static let invalidToken = StrapiError(status: .unauthorized, message: "Invalid token.")
    static let notFound = StrapiError(status: .notFound, message: "Not Found")
    static let tooManyLargeLists = StrapiError(
        status: .tooManyRequests,
        message: "Too many long lists at once: try again when one has finished, or ask for fewer rows with _limit."
    )

    init(status: HTTPResponse.Status, message: String) {
        self.status = status
        body = StrapiErrorJSON(statusCode: status.code, error: status.reasonPhrase, message: message)
    }

    /// A users-permissions form error: `message` and `data` both hold `[{messages: [{id, message}]}]`.
    init(status: HTTPResponse.Status = .badRequest, id: String, message: String) {
        self.status = status
        body = StrapiErrorJSON(statusCode: status.code, error: status.reasonPhrase, id: id, message: message)
    }

    static func badRequest(_ message: String) -> StrapiError {
        StrapiError(status: .badRequest, message: message)
    }

    static func unreadableBody(_ error: BodyReadingError) -> StrapiError {
        StrapiError(status: error.status, message: error.message)
    }

    /// The caller-dependent headers are added by `CallerDependentHeadersMiddleware`, which every route group that
    /// throws these sits behind.
    func response(from request: Request, context: some RequestContext) throws -> Response {
        try Response.json(body, status: status)
    }
}

/// The users-permissions plugin's form errors, with Strapi's ids and English messages.
extension StrapiError {
    static let invalidCredentials = StrapiError(id: "Auth.form.error.invalid", message: "Identifier or password invalid.")
    static let identifierMissing = StrapiError(id: "Auth.form.error.email.provide", message: "Please provide your username or your e-mail.")
    static let emailMissing = StrapiError(id: "Auth.form.error.email.provide", message: "Please provide your email.")
    static let emailFormat = StrapiError(id: "Auth.form.error.email.format", message: "Please provide valid email address.")
    static let emailTaken = StrapiError(id: "Auth.form.error.email.taken", message: "Email is already taken.")
    static let usernameMissing = StrapiError(id: "Auth.form.error.username.provide", message: "Please provide your username.")
    static let usernameTaken = StrapiError(id: "Auth.form.error.username.taken", message: "Username already taken")
    static let passwordMissing = StrapiError(id: "Auth.form.error.password.provide", message: "Please provide your password.")
    static let passwordDollars = StrapiError(id: "Auth.form.error.password.format", message: "Your password cannot contain more than three times the symbol `$`.")
    static let passwordsDiffer = StrapiError(id: "Auth.form.error.password.matching", message: "Passwords do not match.")
    static let blocked = StrapiError(id: "Auth.form.error.blocked", message: "Your account has been blocked by an administrator")
    static let rateLimited = StrapiError(status: .tooManyRequests, id: "Auth.form.error.ratelimit", message: "Too many attempts, please try again in a minute.")
    static let codeInvalid = StrapiError(id: "Auth.form.error.code.provide", message: "Incorrect code provided.")
    static let paramsMissing = StrapiError(id: "Auth.form.error.params.provide", message: "Incorrect params provided.")
    static let notConfirmed = StrapiError(id: "Auth.form.error.confirmed", message: "Your account email is not confirmed")
    static let mailRateLimited = StrapiError(status: .tooManyRequests, id: "Auth.form.error.ratelimit", message: "Too many mails asked for, please try again later.")
    static let tooManySignUps = StrapiError(status: .tooManyRequests, id: "Auth.form.error.ratelimit", message: "Too many sign-ups from this address, please try again later.")

    static func usernameFormat(_ message: String) -> StrapiError {
        StrapiError(id: "Auth.form.error.username.format", message: message)
    }

    static func passwordFormat(_ message: String) -> StrapiError {
        StrapiError(id: "Auth.form.error.password.format", message: message)
    }

    static func emailFormat(_ message: String) -> StrapiError {
        StrapiError(id: "Auth.form.error.email.format", message: message)
    }
}
