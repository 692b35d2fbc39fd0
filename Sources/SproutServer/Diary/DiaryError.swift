import HTTPTypes
import Hummingbird
import SproutWire

/// Every Diary and weather error: `{"message": "…"}`.
struct DiaryError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String

    static func badRequest(_ message: String) -> DiaryError { DiaryError(status: .badRequest, message: message) }

    static let unauthorized = DiaryError(status: .unauthorized, message: "Sign in: the diary needs an account's Bearer token.")
    static let notFound = DiaryError(status: .notFound, message: "No diary entry has this id.")
    static let neverSeen = DiaryError(status: .notFound, message: "This account never had a diary entry with this id.")
    static let busy = DiaryError(
        status: .conflict, message: "Other writes to this entry kept overtaking this one; send it again."
    )

    static let movedSinceBase = DiaryError(
        status: .conflict,
        message: "The entry changed since baseUpdatedAt (another device wrote it): fetch it, then decide again."
    )

    static func unreadableBody(_ error: BodyReadingError) -> DiaryError {
        DiaryError(status: error.status, message: error.message)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try Response.json(DiaryErrorJSON(message: message), status: status)
    }
}

extension DiaryError: SignInRefusal {
    /// The Diary and the weather serve accounts only (a Bearer JWT or the web app's session): anyone else gets 401.
    static func refusal(for caller: Caller) -> any Error { DiaryError.unauthorized }
}
