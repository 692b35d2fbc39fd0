/// One page of the product list or a search, with the server's paging facts (either envelope).
public struct MarketPage: Sendable, Hashable {
    /// The products on this page, newest first.
    public var products: [MarketProductSummary]
    /// This page's number, from 1.
    public var pageNo: Int
    /// The page size the server used (after clamping to 1…100).
    public var itemsPerPage: Int
    /// How many products the list or search has in all.
    public var totalCount: Int
    /// The number of the last page (0 for an empty list).
    public var lastPage: Int
    /// Whether a later page exists; the list stops asking when it is false.
    public var hasNext: Bool
    /// Whether an earlier page exists.
    public var hasPrev: Bool

    /// A page with the given values.
    public init(products: [MarketProductSummary], pageNo: Int, itemsPerPage: Int, totalCount: Int, lastPage: Int, hasNext: Bool, hasPrev: Bool) {
        self.products = products
        self.pageNo = pageNo
        self.itemsPerPage = itemsPerPage
        self.totalCount = totalCount
        self.lastPage = lastPage
        self.hasNext = hasNext
        self.hasPrev = hasPrev
    }
}
