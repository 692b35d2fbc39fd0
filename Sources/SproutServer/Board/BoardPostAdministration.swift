import Foundation

/// What `sprout board pin|unpin` answers of a post.
public struct PinnedPostSummary: Sendable, Equatable {
    public let id: Int
    public let boardID: Int
    public let title: String
    public let pinned: Bool
}

/// Moderators' and admins' work on single posts: pinning (any board) and editing the notices of a read-only
/// board that someone else wrote. Audited like the boards' changes: the post is read, and the entry and the change
/// are written in one transaction only while it is still as read.
extension BoardAdministration {
    /// A board shows at most this many pinned posts above its list: pins are for a few notices, and every
    /// visitor's first page carries them.
    public static let maximumPinnedPosts = 10

    /// Pins the post (its board's pinned list, newest pin first) or unpins it. A hidden post is not pinned.
    public func setPinned(postID: Int, _ pinned: Bool, by actor: AuditActor) async throws -> PinnedPostSummary {
        for _ in 0..<3 {
            let post = try await postState(postID)
            guard post.pinned != pinned else { return post.summary }
            if pinned && post.hidden {
                throw BoardAdministrationError.invalid("Post \(postID) is hidden: restore it before pinning it.")
            }
            let now = Date().truncatedToMilliseconds
            let roomLeft: SQLStatement = """
                (SELECT count(*) FROM board_posts q WHERE q.board_id = \(bind: post.boardID) AND q.pinned_at IS NOT NULL) < \(bind: Self.maximumPinnedPosts)
                """
            let expectation: SQLStatement = pinned ? "pinned_at IS NULL AND hidden_at IS NULL AND \(roomLeft)" : "pinned_at IS NOT NULL"
            let entry = AuditEntry(action: pinned ? "board-post.pin" : "board-post.unpin", target: "board-post:\(postID)", changes: [
                "pinned": .init(before: String(post.pinned), after: String(pinned)),
            ])
            // The board's row is locked first, so two pins racing for its last place are taken one after the other.
            let rows = try await executor.writeSequence(
                ["UPDATE board_boards SET order_no = order_no WHERE id = \(bind: post.boardID)"] + audit.prune(at: now) + [
                    audit.record(entry, by: actor, at: now, when: "EXISTS (SELECT 1 FROM board_posts WHERE id = \(bind: postID) AND \(expectation))"),
                    "UPDATE board_posts SET pinned_at = \(bind: pinned ? now : nil) WHERE id = \(bind: postID) AND \(expectation) RETURNING id",
                ],
                as: SQLInt.self
            )
            if !rows.isEmpty { return PinnedPostSummary(id: postID, boardID: post.boardID, title: post.title, pinned: pinned) }
            if pinned, try await pinnedCount(board: post.boardID) >= Self.maximumPinnedPosts {
                throw BoardAdministrationError.tooManyPinned(board: post.boardID)
            }
        }
        throw BoardAdministrationError.invalid("Post \(postID) kept changing while this was being done; try again.")
    }

    /// Changes a post's title and contents for a moderator or an admin who did not write it (a notice in a
    /// read-only board). False when nothing was there to change (the post is gone, or already says this).
    func editPost(id: Int, boardID: Int, title: String, contents: String, by actor: AuditActor, at now: Date) async throws -> Bool {
        for _ in 0..<3 {
            let post = try await postState(id)
            guard post.boardID == boardID else { throw BoardAdministrationError.postNotFound(id) }
            var changes: [String: AuditEntry.Change] = [:]
            if post.title != title { changes["title"] = .init(before: post.title, after: title) }
            if post.contents != contents { changes["contents"] = .init(before: post.contents, after: contents) }
            guard !changes.isEmpty else { return false }
            let unchanged: SQLStatement = "title = \(bind: post.title) AND contents = \(bind: post.contents)"
            let rows = try await executor.writeSequence(
                ["UPDATE board_posts SET view_count = view_count WHERE id = \(bind: id)"] + audit.prune(at: now) + [
                    audit.record(
                        AuditEntry(action: "board-post.edit", target: "board-post:\(id)", changes: changes), by: actor, at: now,
                        when: "EXISTS (SELECT 1 FROM board_posts WHERE id = \(bind: id) AND \(unchanged))"
                    ),
                    """
                    UPDATE board_posts SET title = \(bind: title), contents = \(bind: contents), title_folded = \(bind: BoardText.fold(title)),
                      contents_folded = \(bind: BoardText.fold(contents)), updated_at = \(bind: now)
                    WHERE id = \(bind: id) AND \(unchanged) RETURNING id
                    """,
                ],
                as: SQLInt.self
            )
            if !rows.isEmpty { return true }
        }
        throw BoardAdministrationError.invalid("Post \(id) kept changing while this was being done; try again.")
    }

    private func postState(_ id: Int) async throws -> PostState {
        guard let post = try await executor.readFirst(
            "SELECT id, board_id, title, contents, pinned_at, hidden_at FROM board_posts WHERE id = \(bind: id)", as: PostState.self
        ) else { throw BoardAdministrationError.postNotFound(id) }
        return post
    }

    private func pinnedCount(board: Int) async throws -> Int {
        try await executor.readFirst(
            "SELECT count(*) AS value FROM board_posts WHERE board_id = \(bind: board) AND pinned_at IS NOT NULL", as: SQLInt.self
        )?.value ?? 0
    }
}

/// A post as its administration reads it before a change.
private struct PostState: SQLRowDecodable {
    let id: Int
    let boardID: Int
    let title: String
    let contents: String
    let pinned: Bool
    let hidden: Bool

    init(row: some SQLRow) throws {
        id = try row.int("id")
        boardID = try row.int("board_id")
        title = try row.string("title")
        contents = try row.string("contents")
        pinned = try row.optionalDate("pinned_at") != nil
        hidden = try row.optionalDate("hidden_at") != nil
    }

    var summary: PinnedPostSummary { PinnedPostSummary(id: id, boardID: boardID, title: title, pinned: pinned) }
}
