/// The users-permissions role every Sprout account has. Strapi populates it as an object on the signed-in user and
/// gives only its id inside a post's or comment's user.
public struct StrapiRoleJSON: Codable, Sendable, Equatable {
    /// The role's id (1).
    public var id: Int
    /// `Authenticated`.
    public var name: String
    /// Strapi's default description.
    public var description: String
    /// `authenticated`.
    public var type: String

    /// A role from its parts.
    public init(id: Int, name: String, description: String, type: String) {
        self.id = id
        self.name = name
        self.description = description
        self.type = type
    }

    /// Strapi's default "Authenticated" role, the only one Sprout hands out.
    public static let authenticated = StrapiRoleJSON(
        id: 1, name: "Authenticated", description: "Default role given to authenticated user.", type: "authenticated"
    )
}

/// The signed-in user: the `user` of a register or login answer, `GET /users/me` and the change-password answer.
/// `role` is an object; `posts` and `comments` are the account's own, shallow.
public struct StrapiUserJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var username: String
    public var email: String
    /// Always `local`.
    public var provider: String
    public var confirmed: Bool
    /// Strapi leaves it `null` until an administrator sets it.
    public var blocked: Bool?
    public var role: StrapiRoleJSON
    /// `created_at`, as `StrapiTimestamp` text.
    public var createdAt: String
    /// `updated_at`, as `StrapiTimestamp` text.
    public var updatedAt: String
    /// The account's posts, shallow (`user` as an id). Older clients may see none.
    public var posts: [PostShallowJSON]?
    /// The account's comments, shallow (`user` and `post` as ids).
    public var comments: [CommentShallowJSON]?

    enum CodingKeys: String, CodingKey {
        case id, username, email, provider, confirmed, blocked, role, posts, comments
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// A user from its parts.
    public init(
        id: Int, username: String, email: String, provider: String = "local", confirmed: Bool = true,
        blocked: Bool? = nil, role: StrapiRoleJSON = .authenticated, createdAt: String, updatedAt: String,
        posts: [PostShallowJSON]? = [], comments: [CommentShallowJSON]? = []
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.provider = provider
        self.confirmed = confirmed
        self.blocked = blocked
        self.role = role
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.posts = posts
        self.comments = comments
    }

    /// Writes `blocked: null` as Strapi does, rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(email, forKey: .email)
        try container.encode(provider, forKey: .provider)
        try container.encode(confirmed, forKey: .confirmed)
        try container.encode(blocked, forKey: .blocked)
        try container.encode(role, forKey: .role)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(posts, forKey: .posts)
        try container.encodeIfPresent(comments, forKey: .comments)
    }
}

/// The user inside a post or a comment: `role` as an id, no `posts` or `comments`.
public struct StrapiNestedUserJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var username: String
    public var email: String
    public var provider: String
    public var confirmed: Bool
    public var blocked: Bool?
    /// The role's id.
    public var role: Int
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, username, email, provider, confirmed, blocked, role
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// A nested user from its parts.
    public init(
        id: Int, username: String, email: String, provider: String = "local", confirmed: Bool = true,
        blocked: Bool? = nil, role: Int = StrapiRoleJSON.authenticated.id, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.provider = provider
        self.confirmed = confirmed
        self.blocked = blocked
        self.role = role
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Writes `blocked: null` as Strapi does, rather than leaving the key out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(username, forKey: .username)
        try container.encode(email, forKey: .email)
        try container.encode(provider, forKey: .provider)
        try container.encode(confirmed, forKey: .confirmed)
        try container.encode(blocked, forKey: .blocked)
        try container.encode(role, forKey: .role)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}

/// `{jwt, user}`: the answer to register and login.
public struct StrapiAuthJSON: Codable, Sendable, Equatable {
    /// The Bearer token for every later call.
    public var jwt: String
    /// The signed-in user.
    public var user: StrapiUserJSON

    /// An answer from its parts.
    public init(jwt: String, user: StrapiUserJSON) {
        self.jwt = jwt
        self.user = user
    }
}
