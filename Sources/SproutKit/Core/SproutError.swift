import Foundation

/// A failure as SproutKit's stores (and the Diary's client) report it to an app: what went wrong (`kind`), while
/// doing what (`operation`), for which service, with a Korean sentence to show — and the server's own data kept:
/// the status, its text, Strapi's form message id and Laravel's per-field errors.
///
/// One type for every service; each service sorts an `APIError` by its own contract's rules (a 409 is a taken
/// vendor name to the market and "try again" to the Diary), which live in the service's folder
/// (`CommunityErrorRules.swift`, …). Make one with `SproutError(_:service:during:)` or `APIError.sorted(for:during:)`.
public struct SproutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service whose contract sorted the failure.
    public enum Service: String, Sendable, Equatable, CaseIterable {
        /// The Laravel todos API (`/api/v2/todos`).
        case todos
        /// The Strapi community API (accounts, posts, comments).
        case community
        /// The open market.
        case market
        /// The board.
        case board
        /// The Diary.
        case diary
        /// Reports to the moderators (`POST /api/reports`), for every app.
        case reports
    }

    /// The service whose rules sorted the failure.
    public let service: Service
    /// What went wrong.
    public let kind: Kind
    /// What was being done, when the caller said.
    public let operation: Operation?
    /// The HTTP status, when the server answered.
    public let statusCode: Int?
    /// The server's own text (its `message`, or Strapi's first form message), when it sent one.
    public let serverMessage: String?
    /// Strapi's form message id (`Auth.form.error.invalid`, …), when the server sent one.
    public let messageID: String?
    /// Laravel's per-field validation messages (`errors`), when the server sent them.
    public let fieldErrors: [String: [String]]
    /// A sentence to show a person.
    public let message: String
    /// What the system said (the `APIError`, or a database error), for logs.
    public let detail: String?

    /// Sorts `error` by the rules of `service`, for a failure during `operation`.
    public init(_ error: APIError, service: Service, during operation: Operation? = nil) {
        let strapi = service == .community ? error.strapiError : nil
        let serverMessage: String? = switch service {
        case .community: strapi?.readableMessage
        case .market: error.marketErrorBody?.message ?? error.serverMessage
        case .todos, .board, .diary, .reports: error.serverMessage
        }
        let kind = Self.kind(of: error, service: service, messageID: strapi?.formMessageID)
        var fieldErrors: [String: [String]] = [:]
        if case .status(_, _, let errors, _) = error { fieldErrors = errors }
        self.init(
            service: service, kind: kind, during: operation, statusCode: error.statusCode, serverMessage: serverMessage,
            messageID: strapi?.formMessageID, fieldErrors: fieldErrors, detail: error.description,
            message: Self.message(for: kind, service: service, during: operation, serverMessage: serverMessage) ?? error.message
        )
    }

    /// An error from its parts (a database failure, a cancelled retry loop); the sentence is the service's for
    /// `kind` and `operation`.
    public init(
        service: Service, kind: Kind, during operation: Operation? = nil, statusCode: Int? = nil, serverMessage: String? = nil,
        messageID: String? = nil, fieldErrors: [String: [String]] = [:], detail: String? = nil
    ) {
        self.init(
            service: service, kind: kind, during: operation, statusCode: statusCode, serverMessage: serverMessage,
            messageID: messageID, fieldErrors: fieldErrors, detail: detail,
            message: Self.message(for: kind, service: service, during: operation, serverMessage: serverMessage) ?? Self.fallbackMessage
        )
    }

    private init(
        service: Service, kind: Kind, during operation: Operation?, statusCode: Int?, serverMessage: String?,
        messageID: String?, fieldErrors: [String: [String]], detail: String?, message: String
    ) {
        self.service = service
        self.kind = kind
        self.operation = operation
        self.statusCode = statusCode
        self.serverMessage = serverMessage
        self.messageID = messageID
        self.fieldErrors = fieldErrors
        self.detail = detail
        self.message = message
    }

    /// A failure of the database on the device, during `operation`.
    public static func storage(_ error: any Error, service: Service, during operation: Operation? = nil) -> SproutError {
        SproutError(service: service, kind: .storage, during: operation, detail: String(describing: error))
    }

    /// Whether trying the same request again later may succeed: no answer, or a server that cannot answer now.
    /// A refusal (400, 401, 404, 413) will be refused again.
    public var isRetryable: Bool {
        kind == .offline || kind == .unavailable
    }

    /// A line for logs.
    public var description: String {
        "\(service) \(operation.map { "\($0)" } ?? "call") failed: \(kind)" + (statusCode.map { " (HTTP \($0))" } ?? "")
            + (serverMessage.map { ": \($0)" } ?? "") + (detail.map { " [\($0)]" } ?? "")
    }

    /// What a failure says when no rule has a sentence for it and no `APIError` supplies one.
    static let fallbackMessage = "요청을 처리하지 못했습니다."

    /// The kind of `error` under the rules of `service`.
    static func kind(of error: APIError, service: Service, messageID: String?) -> Kind {
        switch service {
        case .community: communityKind(of: error, messageID: messageID)
        case .board: boardKind(of: error)
        case .market: marketKind(of: error)
        case .diary: diaryKind(of: error)
        case .reports: httpKind(of: error)
        case .todos: httpKind(of: error)
        }
    }

    /// The sentence `service` shows for a failure of `kind` during `operation`, given the server's own text; nil
    /// where the service has none of its own (the `APIError`'s sentence is shown then).
    public static func message(for kind: Kind, service: Service, during operation: Operation? = nil, serverMessage: String? = nil) -> String? {
        switch service {
        case .community: communityMessage(for: kind, serverMessage: serverMessage)
        case .board: boardMessage(for: kind, during: operation) ?? operation.flatMap(boardMessage(for:))
        case .market: marketMessage(for: kind, during: operation, serverMessage: serverMessage)
        case .diary: diaryMessage(for: kind, during: operation)
        case .reports: reportMessage(for: kind)
        case .todos: nil
        }
    }
}

extension APIError {
    /// This failure sorted by the rules of `service`, during `operation`.
    public func sorted(for service: SproutError.Service, during operation: SproutError.Operation? = nil) -> SproutError {
        SproutError(self, service: service, during: operation)
    }

    /// The server's own text of a `.status` failure, when it sent one.
    var serverMessage: String? {
        if case .status(_, let message?, _, _) = self { return message }
        return nil
    }
}
