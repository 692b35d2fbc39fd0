import SproutWire

extension StrapiUserJSON {
    /// The signed-in user as Strapi answers it: role as an object, the account's posts and comments shallow.
    init(_ account: Account, activity: AccountActivitySummary) {
        self.init(
            id: account.id,
            username: account.username,
            email: account.email,
            confirmed: account.confirmed,
            blocked: account.blocked,
            createdAt: StrapiTimestamp.string(from: account.createdAt),
            updatedAt: StrapiTimestamp.string(from: account.updatedAt),
            posts: activity.posts.map(PostShallowJSON.init),
            comments: activity.comments.map(CommentShallowJSON.init)
        )
    }
}

extension PostShallowJSON {
    init(_ post: ShallowPost) {
        self.init(
            id: post.id, text: post.text, user: post.authorID,
            createdAt: StrapiTimestamp.string(from: post.createdAt), updatedAt: StrapiTimestamp.string(from: post.updatedAt)
        )
    }
}

extension CommentShallowJSON {
    init(_ comment: ShallowComment) {
        self.init(
            id: comment.id, comment: comment.text, user: comment.authorID, post: comment.postID,
            createdAt: StrapiTimestamp.string(from: comment.createdAt), updatedAt: StrapiTimestamp.string(from: comment.updatedAt)
        )
    }
}
