/// One page of a board's posts or of a search: the envelope's `{value, count, offset, limit, total}`.
public struct BoardPage: Sendable, Hashable {
    /// This page's posts, newest first.
    public var posts: [BoardPost]
    /// Where the page starts among all matches.
    public var offset: Int
    /// The page size the server used (after clamping to 1…100).
    public var limit: Int
    /// How many posts match in all.
    public var total: Int

    /// A page from its parts.
    public init(posts: [BoardPost], offset: Int, limit: Int, total: Int) {
        self.posts = posts
        self.offset = offset
        self.limit = limit
        self.total = total
    }

    /// Whether matches remain after this page.
    public var hasMore: Bool { !posts.isEmpty && offset + posts.count < total }
}
