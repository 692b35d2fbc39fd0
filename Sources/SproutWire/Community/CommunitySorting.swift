/// Strapi v3's `_sort` value: `field:asc|desc`, several joined by commas (`created_at:desc,id:desc`).
public struct StrapiSort: Sendable, Equatable {
    /// One key of the sort.
    public struct Key: Sendable, Equatable {
        /// The field name as the API spells it (`created_at`).
        public var field: String
        /// True for `:desc`.
        public var descending: Bool

        /// A key from its parts.
        public init(field: String, descending: Bool) {
            self.field = field
            self.descending = descending
        }
    }

    /// The keys, most significant first.
    public var keys: [Key]

    /// A sort from its keys.
    public init(keys: [Key]) {
        self.keys = keys
    }

    /// Newest first: `created_at:desc`.
    public static let newestFirst = StrapiSort(keys: [Key(field: "created_at", descending: true)])
    /// Oldest first: `created_at:asc`.
    public static let oldestFirst = StrapiSort(keys: [Key(field: "created_at", descending: false)])

    /// The query value, e.g. `created_at:desc`.
    public var queryValue: String {
        keys.map { "\($0.field):\($0.descending ? "desc" : "asc")" }.joined(separator: ",")
    }

    /// Reads a `_sort` value; a key without a direction is ascending, as in Strapi. Nil when a key is empty or
    /// its direction is neither `asc` nor `desc` (any case).
    public init?(queryValue: String) {
        var keys: [Key] = []
        for part in queryValue.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard let field = pieces.first, !field.isEmpty, pieces.count <= 2 else { return nil }
            var descending = false
            if pieces.count == 2 {
                switch pieces[1].lowercased() {
                case "asc": descending = false
                case "desc": descending = true
                default: return nil
                }
            }
            keys.append(Key(field: String(field), descending: descending))
        }
        guard !keys.isEmpty else { return nil }
        self.keys = keys
    }
}
