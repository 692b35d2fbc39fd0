/// `{data, message}`: how the Laravel todos API wraps a single item.
public struct LaravelEnvelope<Item: Codable & Sendable>: Codable, Sendable {
    /// The item.
    public var data: Item
    /// A human-readable word from the server (Korean).
    public var message: String

    /// An envelope around `data`.
    public init(data: Item, message: String) {
        self.data = data
        self.message = message
    }
}

/// `{data, meta, message}`: a page of a Laravel paginator.
public struct LaravelPage<Item: Codable & Sendable>: Codable, Sendable {
    /// The page's items.
    public var data: [Item]
    /// Where the page stands in the whole list.
    public var meta: LaravelPageMeta
    /// A human-readable word from the server (Korean).
    public var message: String

    /// A page of `data`.
    public init(data: [Item], meta: LaravelPageMeta, message: String) {
        self.data = data
        self.meta = meta
        self.message = message
    }
}

/// Laravel's paginator facts. `from` and `to` are 1-based row positions, `null` on an empty page.
public struct LaravelPageMeta: Codable, Sendable, Equatable {
    /// This page's number, from 1.
    public var currentPage: Int
    /// Position of the page's first row, from 1; nil on an empty page.
    public var from: Int?
    /// The last page's number (1 for an empty list).
    public var lastPage: Int
    /// Rows per page.
    public var perPage: Int
    /// Position of the page's last row; nil on an empty page.
    public var to: Int?
    /// Rows in the whole list.
    public var total: Int

    enum CodingKeys: String, CodingKey {
        case currentPage = "current_page"
        case from
        case lastPage = "last_page"
        case perPage = "per_page"
        case to, total
    }

    /// The facts for page `page` (from 1) of `perPage` rows that holds `count` rows out of `total`.
    public init(page: Int, perPage: Int, count: Int, total: Int) {
        let offset = (page - 1) * perPage
        currentPage = page
        from = count == 0 ? nil : offset + 1
        lastPage = max(1, (total + perPage - 1) / perPage)
        self.perPage = perPage
        to = count == 0 ? nil : offset + count
        self.total = total
    }

    /// Whether a later page exists.
    public var hasMore: Bool { currentPage < lastPage }

    /// Encoded by hand so that `from` and `to` appear as `null` rather than disappearing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currentPage, forKey: .currentPage)
        try container.encode(from, forKey: .from)
        try container.encode(lastPage, forKey: .lastPage)
        try container.encode(perPage, forKey: .perPage)
        try container.encode(to, forKey: .to)
        try container.encode(total, forKey: .total)
    }
}
