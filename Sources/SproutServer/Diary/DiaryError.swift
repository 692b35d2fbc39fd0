import HTTPTypes
import Hummingbird
import SproutWire

/// Every Diary and weather error: `{"message": "…"}`.
struct DiaryError: MessageError {
    let status: HTTPResponse.Status
    let message: String

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

    var body: DiaryErrorJSON { DiaryErrorJSON(message: message) }
}

extension DiaryError: SignInRefusal {
    /// The Diary and the weather serve accounts only (a Bearer JWT or the web app's session): anyone else gets 401.
    static func refusal(for caller: Caller) -> any Error { DiaryError.unauthorized }
}
