import Foundation
import Observation

/// The board screen's list without its UI: the posts of one board, newest first, 30 at a time (`offset` 0, 30,
/// 60, … while `total` says more remain), one load at a time, pull to refresh, and a fresh list whenever the
/// board changes. The posts and their paging are in `list`.
@MainActor
@Observable
public final class BoardPostsStore {
    /// The board shown; nil until `show(_:)`.
    public private(set) var board: Board?
    /// The posts, paged; `list.posts`, `list.loadMore()`, `list.refresh()`, …
    public let list: BoardPostList
    let client: BoardClient

    /// - Parameters:
    ///   - client: the board API.
    ///   - pageSize: posts per page (`limit`), kept within 1…100; 30 as in the app.
    public init(client: BoardClient, pageSize: Int = BoardClient.pageSize) {
        self.client = client
        list = BoardPostList(pageSize: pageSize, operation: .loadPosts)
    }

    /// `등록된 게시글이 없습니다.` once the board is known to have none; nil otherwise.
    public var emptyText: String? { list.hasLoaded && list.posts.isEmpty && list.lastError == nil ? BoardText.noPosts : nil }

    /// Shows `board` from its first page. Another board than the one shown clears the list at once (and drops
    /// any answer still coming for the old one); the same board loads its first page again.
    public func show(_ board: Board) async {
        let changed = board.id != self.board?.id
        self.board = board
        let client = client
        let boardID = board.id
        await list.start({ (offset, limit) throws(APIError) in
            try await client.posts(boardID: boardID, offset: offset, limit: limit)
        }, clearing: changed)
    }

    // MARK: Changes made on other screens

    /// Shows a post written on another screen at the top of the list, when it belongs to the board shown.
    public func insert(_ post: BoardPost) {
        guard post.boardID == board?.id else { return }
        list.insert(post)
    }
}
