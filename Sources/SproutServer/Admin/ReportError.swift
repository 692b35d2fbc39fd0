import HTTPTypes
import Hummingbird
import SproutWire

/// Every error of `/api/reports`: `{"message": "…"}`.
struct ReportError: MessageError {
    let status: HTTPResponse.Status
    let message: String

    static let unauthorized = ReportError(status: .unauthorized, message: "Sign in to report: a Bearer token or the web app's session.")
    static let targetNotFound = ReportError(status: .notFound, message: "There is no such item to report.")
    static let tooMany = ReportError(status: .tooManyRequests, message: "Too many reports from this account in the last hour; try again later.")

    var body: ReportErrorJSON { ReportErrorJSON(message: message) }
}

extension ReportError: SignInRefusal {
    static func refusal(for caller: Caller) -> any Error { ReportError.unauthorized }
}
