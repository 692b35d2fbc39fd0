import Foundation
import NIOCore
import SproutWire

/// A board post as `GET /api/v2/boards/{b}/posts` lists it. One event goes to every subscriber alike, so the row is
/// the one a caller who owns nothing sees (the static token's view) with addresses private (`EMAIL_VISIBILITY=owner`):
/// `isOwner` false, the writer's email masked whatever the setting, and no `hidden` mark (a hidden post is gone).
/// `isNewPost` is as of the read, as a list read then would say.
struct BoardPostItems: EventItemReader {
    let repository: SQLBoardRepository
    var clock = WallClock.system

    func items(ids: [String]) async throws -> [String: EventItem] {
        try await EventItems.rows(for: ids) { ids in
            let now = clock.now
            var rows: [Int: ByteBuffer] = [:]
            for post in try await repository.publicPosts(ids: ids) {
                rows[post.id] = try EventItems.encoded(post.json(for: .staticToken, now: now, emails: .owner))
            }
            return rows
        }
    }
}
