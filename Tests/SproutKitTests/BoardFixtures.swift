import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// The board's reconstructed answers (`Fixtures/Board`, copied from `shared/fixtures/board`) and wire values made
/// to order.
enum BoardFixture {
    static func data(_ name: String) throws -> Data {
        try FixtureFile.data("Board/\(name)")
    }

    static let created = "2024-03-01T09:30:15Z"

    static func board(id: Int, name: String, type: String = "normal", writable: Bool = true) -> BoardJSON {
        BoardJSON(
            boardId: id, displayName: name, boardType: type, isFavorite: false, hasNewPost: false, orderNo: id,
            capability: BoardCapabilityJSON(writable: writable, manageable: false)
        )
    }

    static func post(id: Int, boardID: Int, title: String, contents: String = "내용", writer: String = "writer", isOwner: Bool = false) -> BoardPostJSON {
        BoardPostJSON(
            postId: id, title: title, boardId: boardID, boardDisplayName: "게시판 \(boardID)",
            writer: BoardWriterJSON(displayName: writer, emailAddress: "\(writer)@example.com"), contents: contents,
            createdDateTime: created, viewCount: 0, postType: "normal", isNewPost: false, hasInlineImage: false, commentsCount: 0,
            attachmentsCount: 0, isAnonymous: false, isOwner: isOwner, hasReply: false, parentPostId: nil
        )
    }

    static let boards = [
        board(id: 1, name: "공지사항", type: "notice", writable: false),
        board(id: 2, name: "자유게시판"),
        board(id: 3, name: "익명게시판", type: "anonymous"),
    ]

    static func json<Value: Encodable>(_ value: Value) throws -> Data {
        try JSONEncoder().encode(value)
    }

    /// The query items of a request, by name.
    static func query(_ request: URLRequest?) -> [String: String] {
        let items = request.flatMap { URLComponents(url: $0.url!, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        return Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0.value ?? "") })
    }
}
