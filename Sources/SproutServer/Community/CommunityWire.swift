import SproutWire

extension StrapiNestedUserJSON {
    init(_ author: Author) {
        self.init(
            id: author.id, username: author.username, email: author.email, blocked: author.blocked,
            createdAt: StrapiTimestamp.string(from: author.createdAt), updatedAt: StrapiTimestamp.string(from: author.updatedAt)
        )
    }
}

extension PostJSON {
    init(_ post: Post) {
        self.init(
            id: post.id, text: post.text, user: StrapiNestedUserJSON(post.author),
            createdAt: StrapiTimestamp.string(from: post.createdAt), updatedAt: StrapiTimestamp.string(from: post.updatedAt),
            comments: post.comments.map(CommentShallowJSON.init)
        )
    }
}

extension CommentJSON {
    init(_ comment: Comment) {
        self.init(
            id: comment.id, comment: comment.text, user: StrapiNestedUserJSON(comment.author), post: PostShallowJSON(comment.post),
            createdAt: StrapiTimestamp.string(from: comment.createdAt), updatedAt: StrapiTimestamp.string(from: comment.updatedAt)
        )
    }
}

extension Author {
    init(_ account: Account) {
        self.init(id: account.id, username: account.username, email: account.email, blocked: account.blocked, createdAt: account.createdAt, updatedAt: account.updatedAt)
    }
}
