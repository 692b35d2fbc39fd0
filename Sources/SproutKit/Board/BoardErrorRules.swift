import Foundation

/// How the board sorts a failure, by status. The original app showed no error texts (an empty list on any
/// failure), so the sentences are the kit's own, except that a dropped connection says `인터넷 연결에 실패하였습니다.`
/// as the kit's other services do.
extension SproutError {
    static func boardKind(of error: APIError) -> Kind {
        switch error {
        case .transport: .offline
        case .cancelled: .cancelled
        case .status(let code, _, _, _): [400: Kind.invalidRequest, 401: .unauthorized, 403: .forbidden, 404: .notFound][code] ?? .other
        case .decoding, .invalidRequest: .other
        }
    }

    /// The board's sentence for a failed operation, where the kind says nothing more particular; nil for an
    /// operation that is not the board's.
    public static func boardMessage(for operation: Operation) -> String? {
        switch operation {
        case .loadBoards: "게시판 목록을 불러오지 못했습니다."
        case .loadPosts, .loadPost: "게시글을 불러오지 못했습니다."
        case .search: "검색 결과를 불러오지 못했습니다."
        case .write: "게시글을 등록하지 못했습니다."
        case .edit: "게시글을 수정하지 못했습니다."
        case .delete: "게시글을 삭제하지 못했습니다."
        default: nil
        }
    }

    /// The board's sentence for a kind, which wins over the operation's; nil where the operation's says it.
    static func boardMessage(for kind: Kind, during operation: Operation?) -> String? {
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
        default: nil
        }
    }
}
