import SproutWire

extension StrapiNestedUserJSON {
    init(_ author: Author, emails: EmailDisclosure) {
        self.init(
            id: author.id, username: author.username, email: emails.shown(author.email, ofAccount: author.id), blocked: author.blocked,
            createdAt: StrapiTimestamp.string(from: author.createdAt), updatedAt: StrapiTimestamp.string(from: author.updatedAt)
        )
    }
}

// What a post or comment answer is; `PostAnswer` and `CommentAnswer` write the same bytes without building it
// (`CommunityJSONWriterTests`).
extension PostJSON {
    init(_ post: Post, emails: EmailDisclosure) {
        self.init(
            id: post.id, text: post.text, user: StrapiNestedUserJSON(post.author, emails: emails),
            createdAt: StrapiTimestamp.string(from: post.createdAt), updatedAt: StrapiTimestamp.string(from: post.updatedAt),
            comments: post.comments.map(CommentShallowJSON.init), hidden: post.hiddenAt == nil ? nil : true
        )
    }
}

extension CommentJSON {
    init(_ comment: Comment, emails: EmailDisclosure) {
        self.init(
            id: comment.id, comment: comment.text, user: StrapiNestedUserJSON(comment.author, emails: emails), post: PostShallowJSON(comment.post),
            createdAt: StrapiTimestamp.string(from: comment.createdAt), updatedAt: StrapiTimestamp.string(from: comment.updatedAt),
            hidden: comment.hiddenAt == nil ? nil : true
        )
    }
}

extension Author {
    init(_ account: Account) {
        self.init(id: account.id, username: account.username, email: account.email, blocked: account.blocked, createdAt: account.createdAt, updatedAt: account.updatedAt)
    }
}
