import Foundation
import SproutWire

/// The feed kept live by the `community` topic of an `EventStream`.
extension FeedStore: LiveListStore {
    /// How many new posts wait above the list (`pendingPosts`).
    public var pendingCount: Int { pendingPosts.count }

    /// `새 글 N개` while new posts wait; nil when none do.
    public var pendingText: String? { pendingPosts.isEmpty ? nil : "새 글 \(pendingPosts.count)개" }

    /// Puts the waiting new posts at the top of the list (the reader tapped `pendingText`).
    public func showPendingPosts() {
        for post in pendingPosts.reversed() where !pages.contains(id: post.id) {
            pages.insert(post, at: 0)
        }
        pendingPosts = []
    }

    /// Applies one live update of the `community` topic; other topics' events are ignored.
    ///
    /// A new post waits in `pendingPosts` while the newest are shown first (the list does not jump), and goes to
    /// the bottom when oldest first and the end is loaded. An edited post is replaced where shown, and a restored
    /// one (updated, not shown) inserted where the order puts it. A deleted or hidden post leaves the list. A
    /// comment created, edited or deleted re-reads its post, whose comments changed. `reset` loads the feed again.
    public func apply(_ event: LiveEvent) async {
        guard event.topic == LiveTopic.community.name else { return }
        switch event {
        case .ready:
            return
        case .reset:
            pendingPosts = []
            await refresh()
        case .change(let change):
            guard hasLoaded, let postID = change.entity == "comment" ? change.parentID.flatMap(Int.init) : change.intID else { return }
            if change.entity == "comment" {
                await reread(postID: postID)
            } else if change.entity == "post" {
                await applyPostChange(change, postID: postID)
            }
        }
    }

    private func applyPostChange(_ change: LiveChange, postID: Int) async {
        switch change.kind {
        case .created:
            guard let post = await row(of: change, id: postID) else { return }
            if pages.replace(post) || replacePending(post) { return }
            if sort == .newestFirst {
                pendingPosts.insert(post, at: 0)
            } else {
                insert(post)
            }
        case .updated:
            guard let post = await row(of: change, id: postID) else { return }
            if pages.replace(post) || replacePending(post) { return }
            pages.insert(post, orderedBy: sort == .newestFirst ? Self.newer : { Self.newer($1, $0) })
        case .deleted:
            remove(postID: postID)
            pendingPosts.removeAll { $0.id == postID }
        case nil:
            return
        }
    }

    /// A post whose comments changed, read again where it is shown or waiting.
    private func reread(postID: Int) async {
        guard pages.contains(id: postID) || pendingPosts.contains(where: { $0.id == postID }) else { return }
        do {
            let post = try await client.post(id: postID)
            if !pages.replace(post) { replacePending(post) }
        } catch .status(code: 404, _, _, _) {
            remove(postID: postID)
            pendingPosts.removeAll { $0.id == postID }
        } catch {
            // A live update that could not be read leaves the row as it was; the next refresh brings it.
        }
    }

    /// The event's post: its `item` read as a `/posts` element, else fetched; nil when neither works.
    private func row(of change: LiveChange, id: Int) async -> Post? {
        if let post = try? change.item(as: PostJSON.self)?.post() { return post }
        return try? await client.post(id: id)
    }

    @discardableResult
    private func replacePending(_ post: Post) -> Bool {
        guard let index = pendingPosts.firstIndex(where: { $0.id == post.id }) else { return false }
        pendingPosts[index] = post
        return true
    }

    /// Newest first: by creation time, then by id (the server's `created_at:desc` with ties by id).
    private static func newer(_ a: Post, _ b: Post) -> Bool {
        a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.id > b.id
    }
}
