import HTTPTypes
import Hummingbird

/// Every error of `/api/events`: `{"message": "…"}`, before the stream starts.
struct EventStreamError: MessageError {
    let status: HTTPResponse.Status
    let message: String

    static let unauthorized = EventStreamError(status: .unauthorized, message: "This topic needs an account: a Bearer token or the web app's session.")
    static let rejected = EventStreamError(status: .unauthorized, message: "The credentials were not accepted.")
    static let boardNotFound = EventStreamError(status: .notFound, message: "There is no such board.")
    static let shuttingDown = EventStreamError(status: .serviceUnavailable, message: "This server is shutting down; connect again.")

    static func tooMany(_ refusal: EventStreamSlots.Refusal) -> EventStreamError {
        switch refusal {
        case .account: EventStreamError(status: .tooManyRequests, message: "Too many open streams for this account; close one first.")
        case .address: EventStreamError(status: .tooManyRequests, message: "Too many open streams from this address; close one first.")
        case .process: EventStreamError(status: .serviceUnavailable, message: "This server holds as many streams as it can; connect again later.")
        }
    }

    var body: EventStreamErrorJSON { EventStreamErrorJSON(message: message) }
}

struct EventStreamErrorJSON: Encodable {
    let message: String
}
