import HTTPTypes
import Hummingbird

/// An error answered as a status and a message in its contract's body shape. The Board's, the Diary's and the
/// Market's error types are this, each with its own body and cases; they share the rest here.
protocol MessageError: HTTPResponseError {
    associatedtype Body: Encodable
    var status: HTTPResponse.Status { get }
    var message: String { get }
    init(status: HTTPResponse.Status, message: String)
    /// The contract's body for this error.
    var body: Body { get }
}

extension MessageError {
    static func badRequest(_ message: String) -> Self { Self(status: .badRequest, message: message) }

    /// A body that could not be read (too large, malformed), in this contract's shape.
    static func unreadableBody(_ error: BodyReadingError) -> Self { Self(status: error.status, message: error.message) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try Response.json(body, status: status)
    }
}
