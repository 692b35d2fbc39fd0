/// A board of the Mail Plug board API, as the menu lists it.
public struct Board: Sendable, Hashable, Identifiable {
    /// The board's id (`boardId`).
    public var id: Int
    /// The name the menu shows (`displayName`).
    public var name: String
    /// `normal`, `notice` or `anonymous` (`boardType`); another value from the server is kept as it came.
    public var type: BoardType
    /// Whether the caller may write in it (`capability.writable`); never for the static token.
    public var writable: Bool
    /// Whether a post was written in it in the last 24 hours.
    public var hasNewPost: Bool
    /// The display order (`orderNo`); the menu shows boards in the order the server sent them.
    public var orderNo: Int
    /// Whether the caller (a moderator or an admin) may pin its posts (`capability.manageable`).
    public var manageable: Bool
    /// Whether the caller may edit posts others wrote here: a moderator or an admin in a board only they write in,
    /// such as 공지사항 (Sprout's `capability.editsOthersPosts`).
    public var editsOthersPosts: Bool

    /// A board from its parts.
    public init(
        id: Int, name: String, type: BoardType = .normal, writable: Bool = false, hasNewPost: Bool = false, orderNo: Int = 0,
        manageable: Bool = false, editsOthersPosts: Bool = false
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.writable = writable
        self.hasNewPost = hasNewPost
        self.orderNo = orderNo
        self.manageable = manageable
        self.editsOthersPosts = editsOthersPosts
    }

    /// Whether the caller may edit `post`: their own, or one they may edit as staff here.
    public func mayEdit(_ post: BoardPost) -> Bool {
        post.isOwner || editsOthersPosts
    }
}

/// A board's `boardType`. The original API never documented its values; Sprout sends the three below, and any
/// other text is kept rather than refused.
public struct BoardType: RawRepresentable, Hashable, Sendable {
    /// The wire value.
    public let rawValue: String

    /// A type by its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An ordinary board.
    public static let normal = BoardType(rawValue: "normal")
    /// The notice board.
    public static let notice = BoardType(rawValue: "notice")
    /// A board whose writers show as `익명`.
    public static let anonymous = BoardType(rawValue: "anonymous")
}
