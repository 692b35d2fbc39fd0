/// A page of products. Sprout writes both envelopes in one object — v2's snake_case keys and v3's camelCase
/// keys — so each app generation finds its own and ignores the other's. Decoding accepts either.
public struct MarketPageJSON: Codable, Sendable, Equatable {
    public var pageNo: Int
    public var itemsPerPage: Int
    /// Products matching the search (all products without one).
    public var totalCount: Int
    /// `(pageNo − 1) × itemsPerPage`.
    public var offset: Int
    /// `pageNo × itemsPerPage`, as the live server reported it (not the number of items on the page).
    public var limit: Int
    /// `ceil(totalCount / itemsPerPage)`.
    public var lastPage: Int
    public var hasNext: Bool
    public var hasPrev: Bool
    /// At most `itemsPerPage` products, newest first.
    public var pages: [MarketProductSummaryJSON]

    enum V2Keys: String, CodingKey {
        case pages, offset, limit
        case pageNo = "page_no"
        case itemsPerPage = "items_per_page"
        case totalCount = "total_count"
        case lastPage = "last_page"
        case hasNext = "has_next"
        case hasPrev = "has_prev"
    }

    enum V3Keys: String, CodingKey {
        case pageNo, itemsPerPage, totalCount, lastPage, hasNext, hasPrev
    }

    /// A page from its parts; the derived fields (`offset`, `limit`, `lastPage`, `hasNext`, `hasPrev`) are
    /// computed as the original server did.
    public init(pageNo: Int, itemsPerPage: Int, totalCount: Int, pages: [MarketProductSummaryJSON]) {
        self.pageNo = pageNo
        self.itemsPerPage = itemsPerPage
        self.totalCount = totalCount
        self.pages = pages
        offset = (pageNo - 1) * itemsPerPage
        limit = pageNo * itemsPerPage
        lastPage = (totalCount + itemsPerPage - 1) / itemsPerPage
        hasNext = pageNo < lastPage
        hasPrev = pageNo > 1
    }

    /// Reads a v2 (snake_case) or a v3 (camelCase) envelope.
    public init(from decoder: any Decoder) throws {
        let v2 = try decoder.container(keyedBy: V2Keys.self)
        let v3 = try decoder.container(keyedBy: V3Keys.self)
        pages = try v2.decode([MarketProductSummaryJSON].self, forKey: .pages)
        offset = try v2.decode(Int.self, forKey: .offset)
        limit = try v2.decode(Int.self, forKey: .limit)
        if v2.contains(.pageNo) {
            pageNo = try v2.decode(Int.self, forKey: .pageNo)
            itemsPerPage = try v2.decode(Int.self, forKey: .itemsPerPage)
            totalCount = try v2.decode(Int.self, forKey: .totalCount)
            lastPage = try v2.decode(Int.self, forKey: .lastPage)
            hasNext = try v2.decode(Bool.self, forKey: .hasNext)
            hasPrev = try v2.decode(Bool.self, forKey: .hasPrev)
        } else {
            pageNo = try v3.decode(Int.self, forKey: .pageNo)
            itemsPerPage = try v3.decode(Int.self, forKey: .itemsPerPage)
            totalCount = try v3.decode(Int.self, forKey: .totalCount)
            lastPage = try v3.decode(Int.self, forKey: .lastPage)
            hasNext = try v3.decode(Bool.self, forKey: .hasNext)
            hasPrev = try v3.decode(Bool.self, forKey: .hasPrev)
        }
    }

    /// Writes both envelopes' keys.
    public func encode(to encoder: any Encoder) throws {
        var v2 = encoder.container(keyedBy: V2Keys.self)
        try v2.encode(pageNo, forKey: .pageNo)
        try v2.encode(itemsPerPage, forKey: .itemsPerPage)
        try v2.encode(totalCount, forKey: .totalCount)
        try v2.encode(offset, forKey: .offset)
        try v2.encode(limit, forKey: .limit)
        try v2.encode(pages, forKey: .pages)
        try v2.encode(lastPage, forKey: .lastPage)
        try v2.encode(hasNext, forKey: .hasNext)
        try v2.encode(hasPrev, forKey: .hasPrev)
        var v3 = encoder.container(keyedBy: V3Keys.self)
        try v3.encode(pageNo, forKey: .pageNo)
        try v3.encode(itemsPerPage, forKey: .itemsPerPage)
        try v3.encode(totalCount, forKey: .totalCount)
        try v3.encode(lastPage, forKey: .lastPage)
        try v3.encode(hasNext, forKey: .hasNext)
        try v3.encode(hasPrev, forKey: .hasPrev)
    }
}
