/// One list of todos as the list call pages it (`ListPager`): whose, narrowed by `is_done` or not, in which order.
struct TodoList: PagedList {
    let owner: TodoOwner
    let isDone: Bool?
    let column: String
    let descending: Bool

    init(request: TodoPageRequest, owner: TodoOwner) {
        self.owner = owner
        isDone = request.isDone
        column = request.sortField == .createdAt ? "created_at" : "updated_at"
        descending = request.order == .newestFirst
    }

    var table: String { "todos" }
    var columns: String { SQLTodoRepository.columns }

    var key: String {
        "todos|\(owner.accountID ?? 0)|\(isDone.map(String.init) ?? "all")|\(column)|\(descending ? "desc" : "asc")"
    }

    var filter: SQLStatement {
        guard let isDone else { return owner.condition }
        return "\(owner.condition) AND is_done = \(bind: isDone)"
    }

    /// From `todo_counts`: one or two key lookups (see `TodoMigrations.listVersions`).
    var countsQuery: SQLStatement {
        var query: SQLStatement = """
            SELECT CAST(coalesce(sum(n), 0) AS BIGINT) AS total, CAST(coalesce(sum(version), 0) AS BIGINT) AS version
            FROM todo_counts WHERE owner_key = \(bind: owner.accountID ?? 0)
            """
        if let isDone { query.append(" AND is_done = \(bind: isDone)") }
        return query
    }
}

extension TodoOwner {
    /// `owner_id IS NULL` for the shared list (PostgreSQL's partial indexes match only this form), otherwise
    /// `owner_id = $n`.
    var condition: SQLStatement {
        guard let accountID else { return "owner_id IS NULL" }
        return "owner_id = \(bind: accountID)"
    }
}
