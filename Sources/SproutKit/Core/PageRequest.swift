/// Where the page a store's fetch is asked for starts, in every way the kit's APIs count.
public struct PageRequest: Sendable, Equatable {
    /// Whether this is the first page (first load, refresh, a new search or order).
    public var isFirst: Bool
    /// The rows of the server's list seen so far (0 for the first page), moved by the items inserted and removed
    /// here: the `_start` of an offset-paged API whose rows should neither repeat nor go missing.
    public var offset: Int
    /// How many items are shown now.
    public var loadedCount: Int
    /// The number of the last page that arrived (0 before the first): page-numbered APIs ask for the next.
    public var lastPageNumber: Int
    /// How many pages this load has fetched already (more than 0 only under `PagedList.fill`).
    public var fetchesInLoad = 0
    /// How many new items this load has added already.
    public var addedInLoad = 0
    /// How many new items the previous fetch of this load added.
    public var addedByLastFetch = 0

    /// A request; `PagedList` makes them, tests may too.
    public init(isFirst: Bool, offset: Int, loadedCount: Int, lastPageNumber: Int) {
        self.isFirst = isFirst
        self.offset = offset
        self.loadedCount = loadedCount
        self.lastPageNumber = lastPageNumber
    }
}
