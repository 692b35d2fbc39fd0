import Foundation
import SproutWire

extension APIError {
    /// This failure as a board screen tells it apart, during `operation`.
    public func boardError(during operation: BoardError.Operation? = nil) -> BoardError {
        BoardError(self, during: operation)
    }
}

/// A board failure sorted into what a screen handles differently, with a Korean sentence to show. The original
/// app showed no error texts (an empty list on any failure), so the sentences are the kit's own, except that a
/// dropped connection says `인터넷 연결에 실패하였습니다.` as the kit's other services do.
public struct BoardError: Error, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// 400: an empty or too long field, a bad offset, limit or search target.
        case invalidRequest
        /// 401: no token, or one the server does not take (the session signs out).
        case unauthorized
        /// 403: a board that is not writable, someone else's post, or the static token writing.
        case forbidden
        /// 404: the board or the post does not exist (any more).
        case notFound
        /// No answer: no network, refused connection, timeout.
        case offline
        /// The calling task was cancelled; nothing to show.
        case cancelled
        /// Anything else: another status, an unreadable answer, a request that could not be made.
        case other
    }

    /// What was being done, which picks the sentence.
    public enum Operation: Sendable, Equatable, CaseIterable {
        /// The board menu.
        case loadBoards
        /// A page of a board's posts.
        case loadPosts
        /// A page of search results.
        case search
        /// A post's detail.
        case loadPost
        /// Writing a post or a reply.
        case write
        /// Editing one's own post.
        case edit
        /// Deleting one's own post.
        case delete
    }

    /// What went wrong.
    public let kind: Kind
    /// What was being done, when the caller said.
    public let operation: Operation?
    /// The HTTP status, when the server answered.
    public let statusCode: Int?
    /// The server's own `message` (English), when it sent one.
    public let serverMessage: String?
    /// A sentence to show a person.
    public let message: String

    /// Sorts `error`, which happened during `operation`.
    public init(_ error: APIError, during operation: Operation? = nil) {
        self.operation = operation
        statusCode = error.statusCode
        if case .status(_, let body?, _, _) = error { serverMessage = body } else { serverMessage = nil }
        switch error {
        case .transport: kind = .offline
        case .cancelled: kind = .cancelled
        case .status(let code, _, _, _): kind = Self.kinds[code] ?? .other
        case .decoding, .invalidRequest: kind = .other
        }
        message = Self.message(for: kind, during: operation) ?? operation.map(Self.message(for:)) ?? error.message
    }

    static let kinds: [Int: Kind] = [400: .invalidRequest, 401: .unauthorized, 403: .forbidden, 404: .notFound]

    /// The sentence for a failed operation, where the kind says nothing more particular.
    public static func message(for operation: Operation) -> String {
        switch operation {
        case .loadBoards: "게시판 목록을 불러오지 못했습니다."
        case .loadPosts, .loadPost: "게시글을 불러오지 못했습니다."
        case .search: "검색 결과를 불러오지 못했습니다."
        case .write: "게시글을 등록하지 못했습니다."
        case .edit: "게시글을 수정하지 못했습니다."
        case .delete: "게시글을 삭제하지 못했습니다."
        }
    }

    /// The sentence for a kind, which wins over the operation's; nil where the operation's says it.
    public static func message(for kind: Kind, during operation: Operation? = nil) -> String? {
        switch kind {
        case .offline: APIError.connectionFailedMessage
        case .cancelled: "요청이 취소되었습니다."
        case .unauthorized: "로그인이 필요합니다. 다시 로그인해 주세요."
        case .forbidden:
            switch operation {
            case .write: "이 게시판에는 글을 쓸 수 없습니다."
            case .edit, .delete: "내가 쓴 게시글만 수정하거나 삭제할 수 있습니다."
            default: "권한이 없습니다."
            }
        case .notFound:
            switch operation {
            case .loadBoards, .loadPosts, .search: "게시판을 찾을 수 없습니다."
            default: "삭제되었거나 없는 게시글입니다."
            }
        case .invalidRequest:
            switch operation {
            case .write, .edit: "제목과 내용을 확인해 주세요."
            default: nil
            }
        case .other: nil
        }
    }
}
