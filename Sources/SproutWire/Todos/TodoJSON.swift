/// One todo as the Laravel learning API sends it: `{id, title, is_done, created_at, updated_at}`, timestamps in
/// `LaravelTimestamp` form. The server encodes it and SproutKit decodes it, so both read one definition.
public struct TodoJSON: Codable, Sendable, Equatable {
    /// The todo's id.
    public var id: Int
    /// Its title.
    public var title: String
    /// `is_done`.
    public var isDone: Bool
    /// `created_at`, as `LaravelTimestamp` text.
    public var createdAt: String
    /// `updated_at`, as `LaravelTimestamp` text.
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, title
        case isDone = "is_done"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// A todo's JSON from its parts.
    public init(id: Int, title: String, isDone: Bool, createdAt: String, updatedAt: String) {
        self.id = id
        self.title = title
        self.isDone = isDone
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A create or update body for `/todos-json`: `{title, is_done}`, either left out when nil.
public struct TodoBodyJSON: Codable, Sendable, Equatable {
    /// The new title, if any.
    public var title: String?
    /// The new done state, if any.
    public var isDone: Bool?

    enum CodingKeys: String, CodingKey {
        case title
        case isDone = "is_done"
    }

    /// A body with the given fields.
    public init(title: String?, isDone: Bool?) {
        self.title = title
        self.isDone = isDone
    }
}
