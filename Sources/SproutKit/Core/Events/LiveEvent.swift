import Foundation

/// What an `EventStream` hands out, read from the frames of `GET /api/events` (`docs/events.md`).
public enum LiveEvent: Sendable, Equatable {
    /// The stream (re)started: each subscribed topic's newest number. Events missed while disconnected follow it.
    case ready(cursors: [String: Int])
    /// A row of a list was created, updated or deleted.
    case change(LiveChange)
    /// The stream could not replay `topic` from the client's cursor: lists of that topic should load again.
    case reset(topic: String)

    /// The topic the event concerns; nil for `ready`, which concerns them all.
    public var topic: String? {
        switch self {
        case .ready: nil
        case .change(let change): change.topic
        case .reset(let topic): topic
        }
    }
}

/// One change to a row of a followed list.
public struct LiveChange: Sendable, Equatable {
    /// What happened to the row; hiding by a moderator arrives as `deleted`, restoring as `updated`.
    public enum Kind: String, Sendable {
        /// A new row (`….created`).
        case created
        /// A changed row, or one a moderator restored (`….updated`).
        case updated
        /// A deleted row, or one a moderator hid (`….deleted`).
        case deleted
    }

    /// The topic as subscribed (`todos`, not the account's id).
    public var topic: String
    /// The event's number within its topic.
    public var seq: Int
    /// The action as the server names it: `post.created`, `comment.deleted`, `board-post.updated`, …
    public var action: String
    /// The row's id, always a string (`"13"`, or a diary entry's UUID).
    public var id: String
    /// The parent row's id (a comment's post), else nil.
    public var parentID: String?
    /// The row as one element of the topic's list endpoint, when the server sent it (never for `deleted`).
    public var item: Data?

    /// A change with these fields.
    public init(topic: String, seq: Int, action: String, id: String, parentID: String? = nil, item: Data? = nil) {
        self.topic = topic
        self.seq = seq
        self.action = action
        self.id = id
        self.parentID = parentID
        self.item = item
    }

    /// The kind of row, the action's part before the last dot: `post`, `comment`, `board-post`, `product`, …
    public var entity: Substring { action.lastIndex(of: ".").map { action[..<$0] } ?? action[...] }

    /// What happened, from the action's last part; nil for an action this version does not know.
    public var kind: Kind? { action.lastIndex(of: ".").flatMap { Kind(rawValue: String(action[action.index(after: $0)...])) } }

    /// The id as a number, for the topics whose ids are (all but `diary`).
    public var intID: Int? { Int(id) }

    /// The row decoded as `type` (a list element's wire type), or nil when the event carries none.
    /// - Throws: the decoder's error when `item` is not a `type`.
    public func item<Item: Decodable>(as type: Item.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Item? {
        guard let item else { return nil }
        return try decoder.decode(type, from: item)
    }
}
