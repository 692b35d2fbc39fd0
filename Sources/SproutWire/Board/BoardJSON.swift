/// Every Mail Plug list answer: `{value, count, offset, limit, total}`.
public struct BoardEnvelope<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// This page's items.
    public var value: [Item]
    /// How many items this page holds.
    public var count: Int
    public var offset: Int
    public var limit: Int
    /// How many match in all.
    public var total: Int

    /// An envelope around a page; `count` is the page's size.
    public init(value: [Item], offset: Int, limit: Int, total: Int) {
        self.value = value
        count = value.count
        self.offset = offset
        self.limit = limit
        self.total = total
    }
}

/// A board in `GET /api/v2/boards`.
public struct BoardJSON: Codable, Sendable, Equatable {
    public var boardId: Int
    public var displayName: String
    /// `normal`, `notice` or `anonymous`.
    public var boardType: String
    public var isFavorite: Bool
    /// A post was written in the last 24 hours.
    public var hasNewPost: Bool
    public var orderNo: Int
    public var capability: BoardCapabilityJSON

    /// A board from its parts.
    public init(boardId: Int, displayName: String, boardType: String, isFavorite: Bool, hasNewPost: Bool, orderNo: Int, capability: BoardCapabilityJSON) {
        self.boardId = boardId
        self.displayName = displayName
        self.boardType = boardType
        self.isFavorite = isFavorite
        self.hasNewPost = hasNewPost
        self.orderNo = orderNo
        self.capability = capability
    }
}

/// What the caller may do in a board.
public struct BoardCapabilityJSON: Codable, Sendable, Equatable {
    public var writable: Bool
    /// Sprout: the caller (a moderator or an admin) may pin posts here.
    public var manageable: Bool
    /// Sprout's own: `true` when the caller may also edit posts others wrote here (a moderator's or an admin's in a
    /// board only they write in, such as 공지사항); absent otherwise.
    public var editsOthersPosts: Bool?

    /// Capabilities from their parts.
    public init(writable: Bool, manageable: Bool, editsOthersPosts: Bool? = nil) {
        self.writable = writable
        self.manageable = manageable
        self.editsOthersPosts = editsOthersPosts
    }
}

/// A post, in lists and alone.
public struct BoardPostJSON: Codable, Sendable, Equatable {
    public var postId: Int
    public var title: String
    public var boardId: Int
    public var boardDisplayName: String
    /// `{"displayName": "익명", "emailAddress": ""}` in an anonymous board.
    public var writer: BoardWriterJSON
    /// Plain text (the key is `contents`, not `content`).
    public var contents: String
    /// `BoardTimestamp` text.
    public var createdDateTime: String
    public var viewCount: Int
    /// `normal`, `notice` or `reply`.
    public var postType: String
    /// Written in the last 24 hours.
    public var isNewPost: Bool
    public var hasInlineImage: Bool
    public var commentsCount: Int
    public var attachmentsCount: Int
    public var isAnonymous: Bool
    /// The caller wrote it.
    public var isOwner: Bool
    /// Some reply names it as its parent.
    public var hasReply: Bool
    /// The post a reply answers; absent otherwise.
    public var parentPostId: Int?
    /// Sprout's own: `true` when a moderator hid the post, which then only its writer sees; absent otherwise.
    public var hidden: Bool?
    /// Sprout's own: `true` when a moderator or an admin pinned the post (the board's `?pinned=true` list, shown
    /// above its other posts); absent otherwise.
    public var isPinned: Bool?

    /// A post from its parts.
    public init(
        postId: Int, title: String, boardId: Int, boardDisplayName: String, writer: BoardWriterJSON, contents: String,
        createdDateTime: String, viewCount: Int, postType: String, isNewPost: Bool, hasInlineImage: Bool,
        commentsCount: Int, attachmentsCount: Int, isAnonymous: Bool, isOwner: Bool, hasReply: Bool, parentPostId: Int?,
        hidden: Bool? = nil, isPinned: Bool? = nil
    ) {
        self.postId = postId
        self.title = title
        self.boardId = boardId
        self.boardDisplayName = boardDisplayName
        self.writer = writer
        self.contents = contents
        self.createdDateTime = createdDateTime
        self.viewCount = viewCount
        self.postType = postType
        self.isNewPost = isNewPost
        self.hasInlineImage = hasInlineImage
        self.commentsCount = commentsCount
        self.attachmentsCount = attachmentsCount
        self.isAnonymous = isAnonymous
        self.isOwner = isOwner
        self.hasReply = hasReply
        self.parentPostId = parentPostId
        self.hidden = hidden
        self.isPinned = isPinned
    }
}

/// Who wrote a post, as the board shows it.
public struct BoardWriterJSON: Codable, Sendable, Equatable {
    public var displayName: String
    public var emailAddress: String

    /// A writer from its parts.
    public init(displayName: String, emailAddress: String) {
        self.displayName = displayName
        self.emailAddress = emailAddress
    }

    /// How an anonymous board shows every writer.
    public static let anonymous = BoardWriterJSON(displayName: "익명", emailAddress: "")
}

/// The body of a post's create and edit (`parentPostId` makes a reply; create only).
public struct BoardPostInputJSON: Codable, Sendable, Equatable {
    public var title: String
    public var contents: String
    public var parentPostId: Int?

    /// A post body from its parts.
    public init(title: String, contents: String, parentPostId: Int? = nil) {
        self.title = title
        self.contents = contents
        self.parentPostId = parentPostId
    }
}

/// Where a search looks: the title, the contents, the writer's name, or all three.
public enum BoardSearchTarget: String, Codable, Sendable, CaseIterable {
    case all, title, contents, writer

    /// The app's label for it: 전체, 제목, 내용, 작성자.
    public var label: String {
        switch self {
        case .all: "전체"
        case .title: "제목"
        case .contents: "내용"
        case .writer: "작성자"
        }
    }
}

/// Every board error: `{"message": "…"}`.
public struct BoardErrorJSON: Codable, Sendable, Equatable {
    public var message: String

    /// An error body.
    public init(message: String) { self.message = message }
}
