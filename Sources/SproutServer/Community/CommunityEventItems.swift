import SproutWire

/// A post as `GET /posts` lists it. One event goes to every subscriber alike, so the row is the one a caller who is
/// not its author sees with addresses private (`EMAIL_VISIBILITY=owner`): the author's email masked, whatever the
/// setting, and no `hidden` mark (a hidden post is gone).
struct CommunityPostItems: EventItemReader {
    let repository: SQLCommunityRepository

    func items(ids: [String]) async throws -> [String: EventItem] {
        try await EventItems.rows(for: ids) { ids in
            let emails = EmailDisclosure(viewerID: nil, visibility: .owner)
            let posts = try await repository.publicPosts(ids: ids)
            return Dictionary(posts.map { ($0.id, EventItems.written(PostAnswer(post: $0, emails: emails))) }, uniquingKeysWith: { first, _ in first })
        }
    }
}

/// A comment as a post's comments list (`GET /comments?post=…`) shows it, to a caller who is not its author with
/// addresses private, as `CommunityPostItems` writes a post.
struct CommunityCommentItems: EventItemReader {
    let repository: SQLCommunityRepository

    func items(ids: [String]) async throws -> [String: EventItem] {
        try await EventItems.rows(for: ids) { ids in
            let emails = EmailDisclosure(viewerID: nil, visibility: .owner)
            let comments = try await repository.publicComments(ids: ids)
            return Dictionary(comments.map { ($0.id, EventItems.written(CommentAnswer(comment: $0, emails: emails))) }, uniquingKeysWith: { first, _ in first })
        }
    }
}
