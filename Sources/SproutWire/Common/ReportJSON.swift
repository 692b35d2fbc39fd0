/// `POST /api/reports`' body: what is reported and why.
public struct ReportRequestJSON: Codable, Sendable, Equatable {
    /// `post`, `comment`, `product` or `board-post`.
    public var kind: String
    /// The item's id in its app.
    public var id: Int
    /// Why, in the reporter's words (1 to 1,000 characters).
    public var reason: String

    public init(kind: String, id: Int, reason: String) {
        self.kind = kind
        self.id = id
        self.reason = reason
    }
}

/// A report as `POST /api/reports` answers it (201). Reporting an item again while one's earlier report of it is
/// still open answers that report: one person's reports of one item count once.
public struct ReportJSON: Codable, Sendable, Equatable {
    public var id: Int
    public var kind: String
    /// The reported item's id.
    public var targetID: Int
    public var reason: String
    /// ISO 8601 with milliseconds, UTC.
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, kind, reason
        case targetID = "target_id"
        case createdAt = "created_at"
    }

    public init(id: Int, kind: String, targetID: Int, reason: String, createdAt: String) {
        self.id = id
        self.kind = kind
        self.targetID = targetID
        self.reason = reason
        self.createdAt = createdAt
    }
}

/// Every error of Sprout's own `/api/reports`: `{"message": "…"}`.
public struct ReportErrorJSON: Codable, Sendable, Equatable {
    public var message: String

    public init(message: String) {
        self.message = message
    }
}
