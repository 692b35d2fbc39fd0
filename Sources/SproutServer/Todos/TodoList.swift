/// One list of todos as the list call pages it: whose, narrowed by `is_done` or not, in which order. It writes the
/// SQL pieces the list's queries share.
struct TodoList {
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

    private init(owner: TodoOwner, isDone: Bool?, column: String, descending: Bool) {
        self.owner = owner
        self.isDone = isDone
        self.column = column
        self.descending = descending
    }

    /// The same list read the other way round.
    var reversed: TodoList { TodoList(owner: owner, isDone: isDone, column: column, descending: !descending) }

    /// Names the list for `ListPageMarks`.
    var key: String {
        "todos|\(owner.accountID ?? 0)|\(isDone.map(String.init) ?? "all")|\(column)|\(descending ? "desc" : "asc")"
    }

    /// Ties (the same second) are broken by id in the same direction, so paging is stable.
    func order(prefix: String = "") -> String {
        let direction = descending ? "DESC" : "ASC"
        return "\(prefix)\(column) \(direction), \(prefix)id \(direction)"
    }

    var order: String { order() }

    /// The rows of the list.
    var filter: SQLStatement {
        guard let isDone else { return owner.condition }
        return "\(owner.condition) AND is_done = \(bind: isDone)"
    }

    /// One row: the list's `total` and `version` from `todo_counts` (one or two key lookups; see
    /// `TodoMigrations.listVersions`).
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

/// A list's total and version.
struct TodoCountsRow: SQLRowDecodable {
    let total: Int
    let version: Int

    init(row: some SQLRow) throws {
        total = try row.int("total")
        version = try row.int("version")
    }
}

/// A page-marks row: the list's total and version, and one mark's id (none for an empty list).
struct TodoMarkRow: SQLRowDecodable {
    let total: Int
    let version: Int
    let id: Int?

    init(row: some SQLRow) throws {
        total = try row.int("total")
        version = try row.int("version")
        id = try row.optionalInt("id")
    }
}
