import Foundation
import SproutWire

/// The wire shapes of `SproutWire/Board` turned into the kit's models.
extension BoardJSON {
    var board: Board {
        Board(
            id: boardId, name: displayName, type: BoardType(rawValue: boardType), writable: capability.writable,
            hasNewPost: hasNewPost, orderNo: orderNo, manageable: capability.manageable,
            editsOthersPosts: capability.editsOthersPosts ?? false
        )
    }
}

extension BoardPostJSON {
    func post() throws -> BoardPost {
        guard let createdAt = BoardTimestamp.date(from: createdDateTime) else {
            throw BoardWireError.badDate(createdDateTime)
        }
        return BoardPost(
            id: postId, boardID: boardId, boardName: boardDisplayName, title: title, contents: contents,
            writer: BoardWriter(name: writer.displayName, email: writer.emailAddress), createdAt: createdAt,
            viewCount: viewCount, postType: BoardPostType(rawValue: postType), isNew: isNewPost, hasInlineImage: hasInlineImage,
            commentsCount: commentsCount, attachmentsCount: attachmentsCount, isAnonymous: isAnonymous, isOwner: isOwner,
            hasReply: hasReply, parentPostID: parentPostId, isPinned: isPinned ?? false, isHidden: hidden ?? false
        )
    }
}

extension BoardEnvelope<BoardPostJSON> {
    func page() throws -> BoardPage {
        BoardPage(posts: try value.map { try $0.post() }, offset: offset, limit: limit, total: total)
    }
}

/// Why a 2xx board answer could not be used (reported as `APIError.decoding`).
enum BoardWireError: Error, CustomStringConvertible {
    case badDate(String)

    var description: String {
        switch self {
        case .badDate(let text): "createdDateTime is no BoardTimestamp: \(text)"
        }
    }
}
