import Foundation
import SproutWire

/// A todo as the service works with it, independent of storage and of the wire format.
public struct Todo: Sendable, Equatable {
    public var id: Int
    public var title: String
    public var isDone: Bool
    public var createdAt: Date
    public var updatedAt: Date

    /// The title as search compares it (the `title_folded` column): composed (NFC) then lowercased, so Hangul
    /// typed on one system and pasted from another (NFD) match, and so do Latin letters of either case. Folded
    /// in Swift because SQLite's LOWER folds ASCII only.
    static func fold(_ text: String) -> String {
        text.precomposedStringWithCanonicalMapping.lowercased()
    }
}

/// Whose list a todos call works on: the shared anonymous list, or (once accounts exist) one account's own.
public enum TodoOwner: Sendable, Hashable {
    case anonymous
    case account(Int)

    var accountID: Int? {
        if case .account(let id) = self { return id }
        return nil
    }
}

/// One page request over the todos of an owner, optionally narrowed by a title search and by `is_done`.
public struct TodoPageRequest: Sendable, Equatable {
    public var page: Int = 1
    public var perPage: Int = 10
    public var sortField: TodoSortField = .createdAt
    public var order: TodoSortOrder = .newestFirst
    public var isDone: Bool?
    public var titleContains: String?
}

/// One page of todos with the total the page was cut from.
public struct TodoPage: Sendable, Equatable {
    public var todos: [Todo]
    public var total: Int
}

/// The fields an update sets; `nil` leaves a field as it is.
public struct TodoChanges: Sendable, Equatable {
    public var title: String?
    public var isDone: Bool?
}
