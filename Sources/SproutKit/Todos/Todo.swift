import Foundation
import SproutWire

/// A todo from the Todos service.
public struct Todo: Sendable, Hashable, Identifiable, Codable {
    /// The server's id; never reused after a delete.
    public var id: Int
    /// 6 to 255 characters.
    public var title: String
    /// Whether the todo is completed.
    public var isDone: Bool
    /// When the todo was created (whole seconds).
    public var createdAt: Date
    /// When the title or done state last changed.
    public var updatedAt: Date

    /// A todo with the given values (the server assigns real ones).
    public init(id: Int, title: String, isDone: Bool, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.title = title
        self.isDone = isDone
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// One page of a todo list or search, with the server's paging facts.
public struct TodoPage: Sendable, Hashable {
    /// The todos on this page, in the requested order.
    public var todos: [Todo]
    /// This page's number, from 1.
    public var currentPage: Int
    /// The number of the last page (1 for an empty list).
    public var lastPage: Int
    /// The page size the server used (after clamping to 1…100).
    public var perPage: Int
    /// How many todos the whole list or search has.
    public var total: Int

    /// Whether a later page exists, from the server's `meta` (no need to request past the end to find out).
    public var hasMore: Bool { currentPage < lastPage }
}

/// Which date a list is ordered by (from SproutWire, where the wire values live).
public typealias TodoSortField = SproutWire.TodoSortField

/// The direction of a list's order.
public typealias TodoSortOrder = SproutWire.TodoSortOrder

/// The body encoding used to create or update a todo; the server accepts all of them.
public enum TodoBodyEncoding: Sendable, CaseIterable {
    case json
    case form
    case multipart
}
