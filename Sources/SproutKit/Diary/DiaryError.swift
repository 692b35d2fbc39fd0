import Foundation

/// A Diary failure sorted into what the app handles differently, with a Korean sentence to show. The server's own
/// `{"message"}` (English) is kept in `serverMessage`.
public struct DiaryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// 400: a field the server does not take (an empty or too long title, a bad timestamp, id or paging).
        case invalidRequest
        /// 401: no token, or one the server does not take (the session signs out).
        case unauthorized
        /// 404: the entry does not exist, or was deleted.
        case notFound
        /// 413: the request body is over the server's limit.
        case tooLarge
        /// 409, 429 or a 5xx: the server (or, for the weather, OpenWeather behind it) cannot answer now. 409 is a
        /// `PUT` overtaken by other writes to the same entry (send it again), or a `DELETE` whose `baseUpdatedAt`
        /// the entry has moved past (read it again before deciding); 503 from `GET /api/weather` means the
        /// server has no OpenWeather key, 502 that OpenWeather failed.
        case unavailable
        /// No answer: no network, refused connection, timeout.
        case offline
        /// The calling task was cancelled.
        case cancelled
        /// The database on the device failed (a full disk, a damaged file).
        case storage
        /// Anything else: another status, an unreadable answer, a request that could not be made.
        case other
    }

    /// What was being done, which picks the sentence.
    public enum Operation: Sendable, Equatable, CaseIterable {
        /// Writing an entry (`PUT`).
        case save
        /// Reading an entry, a page or changes.
        case load
        /// Deleting an entry.
        case delete
        /// Reading an entry's earlier versions.
        case versions
        /// Asking for the weather.
        case weather
        /// Synchronising with the server.
        case sync
    }

    /// What went wrong.
    public let kind: Kind
    /// What was being done.
    public let operation: Operation?
    /// The HTTP status, when the server answered.
    public let statusCode: Int?
    /// The server's own `message`, when it sent one.
    public let serverMessage: String?
    /// A sentence to show a person.
    public let message: String
    /// What the system said (a transport or database error), for logs.
    public let detail: String?

    /// Sorts `error`, which happened during `operation`.
    public init(_ error: APIError, during operation: Operation? = nil) {
        var serverMessage: String?
        if case .status(_, let body?, _, _) = error { serverMessage = body }
        let kind: Kind = switch error {
        case .transport: .offline
        case .cancelled: .cancelled
        case .status(let code, _, _, _): Self.kind(forStatus: code)
        case .decoding, .invalidRequest: .other
        }
        self.init(kind: kind, during: operation, statusCode: error.statusCode, serverMessage: serverMessage, detail: error.description)
    }

    /// An error from its parts; the sentence is the kit's for `kind` and `operation`.
    public init(kind: Kind, during operation: Operation? = nil, statusCode: Int? = nil, serverMessage: String? = nil, detail: String? = nil) {
        self.kind = kind
        self.operation = operation
        self.statusCode = statusCode
        self.serverMessage = serverMessage
        self.detail = detail
        message = Self.message(for: kind, during: operation)
    }

    /// A failure of the database on the device, during `operation`.
    public static func storage(_ error: any Error, during operation: Operation? = nil) -> DiaryError {
        DiaryError(kind: .storage, during: operation, detail: String(describing: error))
    }

    /// Whether trying the same request again later may succeed: no answer, or a server that cannot answer now.
    /// A refusal (400, 401, 404, 413) will be refused again.
    public var isRetryable: Bool {
        kind == .offline || kind == .unavailable
    }

    /// A line for logs.
    public var description: String {
        "diary \(operation.map { "\($0)" } ?? "call") failed: \(kind)" + (statusCode.map { " (HTTP \($0))" } ?? "")
            + (serverMessage.map { ": \($0)" } ?? "") + (detail.map { " [\($0)]" } ?? "")
    }

    static func kind(forStatus code: Int) -> Kind {
        switch code {
        case 400, 422: .invalidRequest
        case 401: .unauthorized
        case 404: .notFound
        case 413: .tooLarge
        case 409, 429, 500...599: .unavailable
        default: .other
        }
    }

    /// The sentence for a failure of `kind` during `operation`.
    public static func message(for kind: Kind, during operation: Operation? = nil) -> String {
        switch kind {
        case .offline: return APIError.connectionFailedMessage
        case .cancelled: return "요청이 취소되었습니다."
        case .unauthorized: return "로그인이 필요합니다. 다시 로그인해 주세요."
        case .notFound: return "삭제되었거나 없는 일기입니다."
        case .tooLarge: return "일기가 너무 깁니다."
        case .storage: return "기기에 일기를 저장하지 못했습니다."
        case .invalidRequest where operation == .save || operation == .sync: return "일기의 제목과 내용을 확인해 주세요."
        case .unavailable where operation == .weather: return "날씨 정보를 가져오지 못했습니다."
        case .unavailable: return "서버가 잠시 응답하지 않습니다. 잠시 후 다시 시도해 주세요."
        case .invalidRequest, .other:
            switch operation {
            case .save: return "일기를 저장하지 못했습니다."
            case .delete: return "일기를 삭제하지 못했습니다."
            case .versions: return "이전 기록을 불러오지 못했습니다."
            case .weather: return "날씨 정보를 가져오지 못했습니다."
            case .sync: return "일기를 동기화하지 못했습니다."
            case .load, nil: return "일기를 불러오지 못했습니다."
            }
        }
    }
}

extension APIError {
    /// This failure as the Diary sorts it, during `operation`.
    public func diaryError(during operation: DiaryError.Operation? = nil) -> DiaryError {
        DiaryError(self, during: operation)
    }
}
