/// The kinds of content people write for others, which anyone signed in can report and a moderator can hide,
/// restore or delete. The raw value is the wire name (`POST /api/reports`' `kind`, `sprout moderate … KIND`).
public enum ModeratedKind: String, Sendable, CaseIterable, Codable {
    case post
    case comment
    case product
    case boardPost = "board-post"

    /// The table holding this kind.
    var table: String {
        switch self {
        case .post: "posts"
        case .comment: "comments"
        case .product: "market_products"
        case .boardPost: "board_posts"
        }
    }

    /// SQL giving the author's account id of the row aliased `t` (a product's author is its vendor's account).
    var authorColumn: String {
        switch self {
        case .post, .comment: "t.user_id"
        case .product: "(SELECT v.account_id FROM market_vendors v WHERE v.id = t.vendor_id)"
        case .boardPost: "t.account_id"
        }
    }

    /// SQL giving a short text of the row aliased `t`, for the console's lists and the reports queue.
    var excerptColumn: String {
        switch self {
        case .post: "t.text"
        case .comment: "t.comment"
        case .product: "t.name"
        case .boardPost: "t.title"
        }
    }

    /// The join from the row aliased `t` to its author's account, aliased `a`.
    var authorJoin: String {
        switch self {
        case .post, .comment: "JOIN accounts a ON a.id = t.user_id"
        case .product: "JOIN market_vendors v ON v.id = t.vendor_id JOIN accounts a ON a.id = v.account_id"
        case .boardPost: "JOIN accounts a ON a.id = t.account_id"
        }
    }

    /// SQL giving the searchable text of the row aliased `t` (the moderation list's text filter).
    var textColumn: String {
        switch self {
        case .post: "t.text"
        case .comment: "t.comment"
        case .product: "t.search_text"
        case .boardPost: "t.title || ' ' || t.contents"
        }
    }

    /// SQL giving what the item's address in the web app needs besides its id, of the row aliased `t`: a comment's
    /// post, a board post's board; NULL for the others.
    var parentColumn: String {
        switch self {
        case .comment: "t.post_id"
        case .boardPost: "t.board_id"
        case .post, .product: "NULL"
        }
    }

    /// The audit log's name of one item: `post:12`.
    func target(_ id: Int) -> String { "\(rawValue):\(id)" }

    /// What the console calls it.
    var label: String {
        switch self {
        case .post: "커뮤니티 글"
        case .comment: "커뮤니티 댓글"
        case .product: "마켓 상품"
        case .boardPost: "게시판 글"
        }
    }
}
