import Foundation
import SproutWire

/// A board and whether anything was written in it lately.
struct Board: Sendable, Equatable {
    let id: Int
    let displayName: String
    let boardType: BoardType
    let writable: Bool
    let archived: Bool
    let orderNo: Int
    let hasNewPost: Bool
}

enum BoardType: String, Sendable, CaseIterable {
    case normal, notice, anonymous
}

/// A post with what the Mail Plug JSON shows of it.
struct BoardPost: Sendable, Equatable {
    let id: Int
    let boardID: Int
    let boardDisplayName: String
    let accountID: Int
    let writerName: String
    let writerEmail: String
    let parentPostID: Int?
    let title: String
    let contents: String
    let postType: String
    let isAnonymous: Bool
    let viewCount: Int
    let createdAt: Date
    let hasReply: Bool
    /// When a moderator hid it: then only its writer sees it (marked).
    var hiddenAt: Date? = nil
    /// When a moderator or an admin pinned it: the board's pinned posts show above its list (`?pinned=true`).
    var pinnedAt: Date? = nil
}

struct BoardPostQuery: Sendable, Equatable {
    var offset = 0
    var limit = 30
    var search: String?
    var target = BoardSearchTarget.all
    /// Only the board's pinned posts, newest pin first (`pinned=true`).
    var pinnedOnly = false
}

extension BoardPost {
    /// A post is new for 24 hours.
    static let newFor: TimeInterval = 24 * 60 * 60

    /// The post as `caller` sees it: its writer's address whole only for the writer (or for everyone, when
    /// `emails` says so; `EmailDisclosure`).
    func json(for caller: BoardCaller, now: Date, emails visibility: EmailVisibility) -> BoardPostJSON {
        let emails = EmailDisclosure(viewerID: caller.accountID, visibility: visibility)
        return BoardPostJSON(
            postId: id, title: title, boardId: boardID, boardDisplayName: boardDisplayName,
            writer: isAnonymous ? .anonymous : BoardWriterJSON(displayName: writerName, emailAddress: emails.shown(writerEmail, ofAccount: accountID)),
            contents: contents, createdDateTime: BoardTimestamp.string(from: createdAt), viewCount: viewCount,
            postType: postType, isNewPost: now.timeIntervalSince(createdAt) < Self.newFor, hasInlineImage: false,
            commentsCount: 0, attachmentsCount: 0, isAnonymous: isAnonymous, isOwner: caller.accountID == accountID,
            hasReply: hasReply, parentPostId: parentPostID, hidden: hiddenAt == nil ? nil : true,
            isPinned: pinnedAt == nil ? nil : true
        )
    }
}

extension Board {
    /// Who may write here: nobody in an archived board (read-only, out of the menu); in a read-only board such as
    /// 공지사항 only moderators and admins (its notices); in the others every account.
    func isWritable(by account: Account?) -> Bool {
        guard let account, !archived else { return false }
        return writable || account.role.mayModerate
    }

    /// Who may pin its posts and edit its notices (`capability.manageable`): moderators and admins, while the board
    /// is not archived.
    func isManageable(by account: Account?) -> Bool {
        guard let account, !archived else { return false }
        return account.role.mayModerate
    }

    /// Who may edit posts others wrote: moderators and admins, in a board only they write in (its notices).
    func editsOthersPosts(by account: Account?) -> Bool {
        !writable && isManageable(by: account)
    }

    func json(for caller: BoardCaller) -> BoardJSON {
        BoardJSON(
            boardId: id, displayName: displayName, boardType: boardType.rawValue, isFavorite: false, hasNewPost: hasNewPost,
            orderNo: orderNo,
            capability: BoardCapabilityJSON(
                writable: isWritable(by: caller.account), manageable: isManageable(by: caller.account),
                editsOthersPosts: editsOthersPosts(by: caller.account) ? true : nil
            )
        )
    }
}
