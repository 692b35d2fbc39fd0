/// A post as Strapi v3 answers it (list, detail, create, update, delete): the author populated, the comments
/// shallow.
public struct PostJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var text: String
    public var user: StrapiNestedUserJSON
    /// `created_at`, as `StrapiTimestamp` text.
    public var createdAt: String
    /// `updated_at`, as `StrapiTimestamp` text.
    public var updatedAt: String
    /// The post's comments, oldest first, with `user` and `post` as ids.
    public var comments: [CommentShallowJSON]
    /// Sprout's own: `true` when a moderator hid the post, which then only its author sees; absent otherwise.
    public var hidden: Bool?

    enum CodingKeys: String, CodingKey {
        case id, text, user, comments, hidden
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// A post from its parts.
    public init(
        id: Int, text: String, user: StrapiNestedUserJSON, createdAt: String, updatedAt: String, comments: [CommentShallowJSON], hidden: Bool? = nil
    ) {
        self.hidden = hidden
        self.id = id
        self.text = text
        self.user = user
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.comments = comments
    }
}

/// A post one relation deep: inside a comment, or in a user's `posts`. `user` is the author's id.
public struct PostShallowJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var text: String
    public var user: Int?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, text, user
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// A shallow post from its parts.
    public init(id: Int, text: String, user: Int?, createdAt: String, updatedAt: String) {
        self.id = id
        self.text = text
        self.user = user
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// A missing author is `null`, not a missing key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        try container.encode(user, forKey: .user)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// A comment as Strapi v3 answers it (list, create, update, delete): the author and the post populated, the
/// post's own author as an id.
public struct CommentJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var comment: String
    public var user: StrapiNestedUserJSON
    /// The post it belongs to. The original could answer `null` for a comment whose post was deleted; Sprout
    /// deletes such comments with their post.
    public var post: PostShallowJSON?
    public var createdAt: String
    public var updatedAt: String
    /// Sprout's own: `true` when a moderator hid the comment, which then only its author sees; absent otherwise.
    public var hidden: Bool?

    enum CodingKeys: String, CodingKey {
        case id, comment, user, post, hidden
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// A comment from its parts.
    public init(
        id: Int, comment: String, user: StrapiNestedUserJSON, post: PostShallowJSON?, createdAt: String, updatedAt: String, hidden: Bool? = nil
    ) {
        self.hidden = hidden
        self.id = id
        self.comment = comment
        self.user = user
        self.post = post
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// A missing post is `null`, not a missing key; `hidden` is absent unless set, as the server writes it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(comment, forKey: .comment)
        try container.encode(user, forKey: .user)
        try container.encode(post, forKey: .post)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(hidden, forKey: .hidden)
    }
}

/// A comment one relation deep: inside a post, or in a user's `comments`. `user` and `post` are ids.
public struct CommentShallowJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var comment: String
    public var user: Int?
    public var post: Int?
    public var createdAt: String
    public var updatedAt: String
    /// Sprout's own: `true` when a moderator hid the comment, which then only its author sees; absent otherwise.
    public var hidden: Bool?

    enum CodingKeys: String, CodingKey {
        case id, comment, user, post, hidden
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// A shallow comment from its parts.
    public init(id: Int, comment: String, user: Int?, post: Int?, createdAt: String, updatedAt: String) {
        self.id = id
        self.comment = comment
        self.user = user
        self.post = post
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// A missing author or post is `null`, not a missing key (the original's orphaned comments had `post: null`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(comment, forKey: .comment)
        try container.encode(user, forKey: .user)
        try container.encode(post, forKey: .post)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
