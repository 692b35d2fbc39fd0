import Foundation

/// A list `GET /api/events` can follow, named as the server names it (`docs/events.md`).
public struct LiveTopic: Hashable, Sendable, CustomStringConvertible {
    /// The topic as it goes into `?topics=` and comes back in an event's `topic`.
    public let name: String

    /// A topic by its wire name; the server refuses names it does not know (400).
    public init(_ name: String) {
        self.name = name
    }

    /// The community's posts and their comments.
    public static let community = LiveTopic("community")
    /// The open market's products.
    public static let market = LiveTopic("market")
    /// The caller's own todos (the shared list when anonymous).
    public static let todos = LiveTopic("todos")
    /// The caller's diary entries; needs an account.
    public static let diary = LiveTopic("diary")
    /// The posts of one board; the server answers 404 for a board that does not exist.
    public static func board(_ id: Int) -> LiveTopic { LiveTopic("board:\(id)") }

    /// The wire name.
    public var description: String { name }
}
