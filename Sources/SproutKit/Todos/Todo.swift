import Foundation

/// A todo from the Todos service.
public struct Todo: Sendable, Hashable, Identifiable, Codable {
    public var id: Int
    public var title: String
    public var isDone: Bool
    public var createdAt: Date
    public var updatedAt: Date

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
    public var todos: [Todo]
    public var currentPage: Int
    public var lastPage: Int
    public var perPage: Int
    public var total: Int

    /// Whether a later page exists, from the server's `meta` (no need to request past the end to find out).
    public var hasMore: Bool { currentPage < lastPage }
}

/// Which date a list is ordered by.
public enum TodoSortField: String, Sendable, CaseIterable {
    case createdAt = "created_at"
    case updatedAt = "updated_at"
}

/// The direction of a list's order.
public enum TodoSortOrder: String, Sendable, CaseIterable {
    case newestFirst = "desc"
    case oldestFirst = "asc"
}

/// The body encoding used to create or update a todo; the server accepts all of them.
public enum TodoBodyEncoding: Sendable, CaseIterable {
    case json
    case form
    case multipart
}
