import SproutWire

/// Strapi v3's query parameters on a collection route: `_start`, `_limit` (100 by default, `-1` for all),
/// `_sort=field:asc|desc[,…]` and equality filters (`post=42`, `user_eq=7`). Anything else is a 400 naming the
/// parameter, rather than being silently ignored as a filter that did not filter.
struct CollectionQuery: Sendable, Equatable {
    /// A field a client may sort or filter on, and the column it is.
    struct Field: Sendable, Equatable {
        enum Kind: Sendable { case integer, text, date }
        let name: String
        let column: String
        let kind: Kind
    }

    struct Filter: Sendable, Equatable {
        let field: Field
        let value: SQLValue
    }

    struct SortKey: Sendable, Equatable {
        let field: Field
        let descending: Bool
    }

    static let defaultLimit = 100

    var start = 0
    /// Nil for `_limit=-1`: every row.
    var limit: Int? = defaultLimit
    /// Empty: the database's order, by id.
    var sort: [SortKey] = []
    var filters: [Filter] = []

    init() {}

    init(_ fields: FormFields, allowed: [Field]) throws(StrapiError) {
        for (name, value) in fields.values.sorted(by: { $0.key < $1.key }) {
            guard let text = value.asText else { throw .badRequest("\(name) must be text.") }
            switch name {
            case "_start":
                guard let start = Int(text), start >= 0 else { throw .badRequest("_start must be a whole number, 0 or more.") }
                self.start = start
            case "_limit":
                guard let limit = Int(text), limit >= -1 else { throw .badRequest("_limit must be a whole number, -1 (all) or more.") }
                self.limit = limit == -1 ? nil : limit
            case "_sort":
                guard let parsed = StrapiSort(queryValue: text) else { throw .badRequest("_sort must be field:asc or field:desc, comma-separated.") }
                sort = try parsed.keys.map { key throws(StrapiError) in
                    guard let field = allowed.first(where: { $0.name == key.field }) else {
                        throw .badRequest("_sort cannot use \(key.field).")
                    }
                    return SortKey(field: field, descending: key.descending)
                }
            default:
                let fieldName = name.hasSuffix("_eq") ? String(name.dropLast(3)) : name
                guard let field = allowed.first(where: { $0.name == fieldName }) else {
                    throw .badRequest("Unknown query parameter: \(name).")
                }
                switch field.kind {
                case .integer:
                    guard let number = Int(text) else { throw .badRequest("\(name) must be a whole number.") }
                    filters.append(Filter(field: field, value: .int(number)))
                case .text:
                    filters.append(Filter(field: field, value: .text(text)))
                case .date:
                    // Dates are compared as the stored kind (REAL seconds, timestamptz), never as text.
                    guard let date = StrapiTimestamp.date(from: text) else {
                        throw .badRequest("\(name) must be a date like 2021-12-30T10:01:48.503Z.")
                    }
                    filters.append(Filter(field: field, value: .date(date)))
                }
            }
        }
    }

    /// The query with its limit held to `maximum` rows: `-1` and any larger `_limit` give at most that many
    /// (`COMMUNITY_LIST_MAX_ROWS`), as Strapi's own `maxLimit` setting does.
    func capped(at maximum: Int) -> CollectionQuery {
        var capped = self
        capped.limit = min(limit ?? maximum, maximum)
        return capped
    }

    /// Whether the answer can hold no more rows than a default page: such lists are built whole.
    var fitsOnePage: Bool {
        guard let limit else { return false }
        return limit <= Self.defaultLimit
    }

    /// The filters joined by AND (or `1 = 1`). `table` qualifies the columns.
    func whereClause(table: String) -> SQLStatement {
        guard !filters.isEmpty else { return "1 = 1" }
        return .joined(filters.map { filter in
            let column = "\(table).\(filter.field.column)"
            // A date matches within its millisecond: the stored value (REAL seconds on SQLite) and the one parsed
            // from the text may differ in the last bit.
            if case .date(let date) = filter.value {
                return """
                    \(raw: column) >= \(bind: date.addingTimeInterval(-0.0005)) AND \(raw: column) < \(bind: date.addingTimeInterval(0.0005))
                    """
            }
            return "\(raw: column) = \(bind: filter.value)"
        }, separator: " AND ")
    }

    /// `ORDER BY …`: the requested keys, then id in the first key's direction (the contract's tie rule), or id
    /// ascending when no sort was asked for.
    func orderClause(table: String) -> String {
        var keys = sort.map { "\(table).\($0.field.column) \($0.descending ? "DESC" : "ASC")" }
        if !sort.contains(where: { $0.field.column == "id" }) {
            keys.append("\(table).id \(sort.first?.descending == true ? "DESC" : "ASC")")
        }
        return keys.joined(separator: ", ")
    }

    /// `LIMIT … OFFSET …`; no limit at all for `_limit=-1`. (Strapi's lists carry no total, so a page cannot be
    /// cut from the nearer end as the other services' are: that would cost a count per page.)
    func limitClause(_ dialect: SQLDialect) -> SQLStatement {
        PageCut.limitClause(limit: limit, offset: start, dialect: dialect)
    }
}
