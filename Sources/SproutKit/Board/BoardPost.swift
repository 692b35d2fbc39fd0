import Foundation

/// A post, in a list or alone, with the badges a row shows.
public struct BoardPost: Sendable, Hashable, Identifiable {
    /// The post's id (`postId`).
    public var id: Int
    /// The board it is in.
    public var boardID: Int
    /// The board's name (`boardDisplayName`).
    public var boardName: String
    /// The title.
    public var title: String
    /// Plain text (the wire key is `contents`).
    public var contents: String
    /// Who wrote it; `익명` with no email in an anonymous board.
    public var writer: BoardWriter
    /// When it was written (`createdDateTime`, read by `BoardTimestamp`).
    public var createdAt: Date
    /// How often it was opened.
    public var viewCount: Int
    /// `normal`, `notice` or `reply` (`postType`).
    public var postType: BoardPostType
    /// Written in the last 24 hours (`isNewPost`): the row's new badge.
    public var isNew: Bool
    /// Whether the contents hold an inline image.
    public var hasInlineImage: Bool
    /// The number of comments.
    public var commentsCount: Int
    /// The number of attachments: the row's clip icon when more than 0.
    public var attachmentsCount: Int
    /// Written in an anonymous board.
    public var isAnonymous: Bool
    /// The caller wrote it: it may be edited and deleted.
    public var isOwner: Bool
    /// Some reply names it as its parent.
    public var hasReply: Bool
    /// The post a reply answers.
    public var parentPostID: Int?
    /// A moderator or an admin pinned it (Sprout's `isPinned`): `BoardClient.pinnedPosts(boardID:)` lists it, to show
    /// above the board.
    public var isPinned: Bool
    /// A moderator hid it (Sprout's `hidden`): only its writer still gets it, and should see it marked.
    public var isHidden: Bool

    /// A post from its parts.
    public init(
        id: Int, boardID: Int, boardName: String, title: String, contents: String, writer: BoardWriter, createdAt: Date,
        viewCount: Int = 0, postType: BoardPostType = .normal, isNew: Bool = false, hasInlineImage: Bool = false,
        commentsCount: Int = 0, attachmentsCount: Int = 0, isAnonymous: Bool = false, isOwner: Bool = false,
        hasReply: Bool = false, parentPostID: Int? = nil, isPinned: Bool = false, isHidden: Bool = false
    ) {
        self.id = id
        self.boardID = boardID
        self.boardName = boardName
        self.title = title
        self.contents = contents
        self.writer = writer
        self.createdAt = createdAt
        self.viewCount = viewCount
        self.postType = postType
        self.isNew = isNew
        self.hasInlineImage = hasInlineImage
        self.commentsCount = commentsCount
        self.attachmentsCount = attachmentsCount
        self.isAnonymous = isAnonymous
        self.isOwner = isOwner
        self.hasReply = hasReply
        self.parentPostID = parentPostID
        self.isPinned = isPinned
        self.isHidden = isHidden
    }

    /// The row's `공지` badge.
    public var isNotice: Bool { postType == .notice }
    /// The row's `Re` badge.
    public var isReply: Bool { postType == .reply }
    /// The row's clip icon.
    public var hasAttachment: Bool { attachmentsCount > 0 }
}

/// Who wrote a post, as the board shows it.
public struct BoardWriter: Sendable, Hashable {
    /// The account's username, or `익명`.
    public var name: String
    /// The account's email; empty in an anonymous board.
    public var email: String

    /// A writer from its parts.
    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}

/// A post's `postType`; another value from the server is kept as it came.
public struct BoardPostType: RawRepresentable, Hashable, Sendable {
    /// The wire value.
    public let rawValue: String

    /// A type by its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An ordinary post.
    public static let normal = BoardPostType(rawValue: "normal")
    /// A notice (`공지` badge).
    public static let notice = BoardPostType(rawValue: "notice")
    /// A reply (`Re` badge).
    public static let reply = BoardPostType(rawValue: "reply")
}
