/// Which date a todo list is ordered by: the `filter` query parameter.
public enum TodoSortField: String, Sendable, CaseIterable {
    case createdAt = "created_at"
    case updatedAt = "updated_at"
}

/// The direction of a todo list's order: the `order_by` query parameter.
public enum TodoSortOrder: String, Sendable, CaseIterable {
    /// `desc`: the latest date first.
    case newestFirst = "desc"
    /// `asc`: the earliest date first.
    case oldestFirst = "asc"
}
