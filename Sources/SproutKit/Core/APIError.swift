import Foundation

/// Why an API call failed. The cases keep apart what a caller handles differently: no answer at all, an answer
/// that says no, and an answer that could not be read.
public enum APIError: Error, Sendable, CustomStringConvertible {
    /// The request never got an answer (no network, refused connection, timeout). `underlying` is the system's error.
    case transport(underlying: any Error & Sendable)
    /// The server answered with a non-2xx status; `message` is the server's own explanation when it sent one,
    /// and `fieldErrors` its per-field validation messages (Laravel's `errors`).
    case status(code: Int, message: String?, fieldErrors: [String: [String]], body: Data)
    /// The server answered 2xx but the body was not what the request expected.
    case decoding(underlying: any Error & Sendable)
    /// The calling task was cancelled before the answer arrived.
    case cancelled
    /// The request could not be built (a path that makes no URL, a body that cannot be encoded); nothing was sent.
    case invalidRequest(reason: String)

    /// A sentence to show a person.
    public var message: String {
        switch self {
        case .transport: "서버에 연결할 수 없습니다. 네트워크를 확인해 주세요."
        case .status(let code, let message, _, _): message ?? "서버가 요청을 처리하지 못했습니다. (HTTP \(code))"
        case .decoding: "서버의 응답을 읽을 수 없습니다."
        case .cancelled: "요청이 취소되었습니다."
        case .invalidRequest: "요청을 만들 수 없습니다."
        }
    }

    /// The HTTP status for `.status`, otherwise nil.
    public var statusCode: Int? {
        if case .status(let code, _, _, _) = self { return code }
        return nil
    }

    /// A line for logs, with the details a developer needs.
    public var description: String {
        switch self {
        case .transport(let error): "transport failure: \(error)"
        case .status(let code, let message, _, _): "HTTP \(code): \(message ?? "(no message)")"
        case .decoding(let error): "decoding failure: \(error)"
        case .cancelled: "cancelled"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        }
    }
}

extension APIError {
    /// What the apps' alerts say when no answer came at all, whatever was being done; the market's and the
    /// board's errors show it.
    public static let connectionFailedMessage = "인터넷 연결에 실패하였습니다."
}

/// The error bodies Sprout's services send: `{"message": ..., "errors": {...}}` (Laravel, Board, Diary),
/// Strapi's `{"message": [{"messages": [{"id", "message"}]}]}` and the market's `{"code", "message"}`.
struct ServerErrorBody: Decodable {
    let message: String?
    let errors: [String: [String]]

    private enum CodingKeys: String, CodingKey { case message, errors, error }
    private struct StrapiMessage: Decodable {
        struct Inner: Decodable { let message: String? }
        let messages: [Inner]?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try? container.decode(String.self, forKey: .message) {
            message = text
        } else if let nested = try? container.decode([StrapiMessage].self, forKey: .message) {
            message = nested.first?.messages?.first?.message
        } else {
            message = try? container.decode(String.self, forKey: .error)
        }
        errors = (try? container.decode([String: [String]].self, forKey: .errors)) ?? [:]
    }
}
