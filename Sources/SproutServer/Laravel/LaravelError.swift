import HTTPTypes
import Hummingbird

/// An error in Laravel's JSON shape: `{"message": "..."}`, plus `"errors": {field: [messages]}` for 422.
struct LaravelError: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String
    let errors: [String: [String]]?

    init(status: HTTPResponse.Status, message: String, errors: [String: [String]]? = nil) {
        self.status = status
        self.message = message
        self.errors = errors
    }

    /// A 422 for failed validation; like Laravel, the top message is the first error plus a count of the rest.
    static func validation(_ errors: [(field: String, message: String)]) -> LaravelError {
        var byField: [String: [String]] = [:]
        for error in errors { byField[error.field, default: []].append(error.message) }
        let first = errors.first?.message ?? "입력값이 올바르지 않습니다."
        let message = errors.count > 1 ? "\(first) (그 외 \(errors.count - 1)개의 오류)" : first
        return LaravelError(status: .unprocessableContent, message: message, errors: byField)
    }

    static let unauthenticated = LaravelError(status: .unauthorized, message: "Unauthenticated.")
    static let todoNotFound = LaravelError(status: .notFound, message: "할일을 찾을 수 없습니다.")

    static func unreadableBody(_ error: BodyReadingError) -> LaravelError {
        LaravelError(status: error.status, message: error.message)
    }

    private struct Body: Encodable {
        let message: String
        let errors: [String: [String]]?
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try Response.json(Body(message: message, errors: errors), status: status)
    }
}
