import Foundation
import SproutWire

/// The board's list kept live by its `board:<id>` topic of an `EventStream`.
extension BoardPostsStore: LiveListStore {
    /// Applies one live update of the board shown; events of other topics and boards are ignored.
    ///
    /// A new post goes to the top; an edited one is replaced where shown, and a restored one (updated, not shown)
    /// inserted where the newest-first order puts it; a deleted or hidden one leaves the list. `reset` loads the
    /// board again.
    public func apply(_ event: LiveEvent) async {
        guard let board, event.topic == LiveTopic.board(board.id).name else { return }
        switch event {
        case .ready:
            return
        case .reset:
            await list.refresh()
        case .change(let change):
            guard change.entity == "board-post", let postID = change.intID else { return }
            switch change.kind {
            case .created, .updated:
                guard list.hasLoaded, let post = await row(of: change, boardID: board.id, postID: postID), post.boardID == board.id else { return }
                if list.posts.contains(where: { $0.id == postID }) {
                    list.replace(post)
                } else {
                    list.insertInOrder(post)
                }
            case .deleted:
                list.remove(postID: postID)
            case nil:
                return
            }
        }
    }

    /// The event's post: its `item` read as an element of the board's list, else fetched; nil when neither works.
    private func row(of change: LiveChange, boardID: Int, postID: Int) async -> BoardPost? {
        if let post = try? change.item(as: BoardPostJSON.self)?.post() { return post }
        return try? await client.post(boardID: boardID, postID: postID)
    }
}
