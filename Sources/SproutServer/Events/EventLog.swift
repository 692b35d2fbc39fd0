import Foundation

/// One committed change, as `event_log` keeps it.
struct LoggedEvent: Sendable, Equatable, SQLRowDecodable {
    /// `community`, `board:2`, `market`, `todos:7` or `todos:shared`, `diary:7`.
    let topic: String
    /// The event's number within its topic: 1, 2, 3… in commit order.
    let seq: Int
    /// `post.created`, `comment.deleted`, `board-post.updated`, `product.created`, `todo.updated`, `entry.updated`.
    let action: String
    /// The item's id (a diary entry's is its UUID).
    let item: String
    /// What holds the item (a comment's post), if anything.
    let parent: Int?
    let at: Date

    init(row: some SQLRow) throws {
        topic = try row.string("topic")
        seq = try row.int("seq")
        action = try row.string("action")
        item = try row.string("item")
        parent = try row.optionalInt("parent")
        at = try row.date("at")
    }
}

/// Reads and prunes the event log. Events are written by triggers only (`EventSource`).
struct EventLog: Sendable {
    let executor: any SQLExecutor

    /// Events are kept while younger than this, or while among the newest `keptPerTopic` of their topic.
    static let keptFor: TimeInterval = 10 * 60
    static let keptPerTopic = 10_000

    /// Events read at once: a page of a replay, or of one hub's catch-up.
    static let pageSize = 500

    /// A topic's events after `seq`, in order, at most `limit`.
    func events(in topic: String, after seq: Int, limit: Int = pageSize) async throws -> [LoggedEvent] {
        try await executor.read(
            """
            SELECT topic, seq, action, item, parent, at FROM event_log
            WHERE topic = \(bind: topic) AND seq > \(bind: seq) ORDER BY seq LIMIT \(bind: limit)
            """,
            as: LoggedEvent.self
        )
    }

    /// The topic's newest committed number (0 before its first event): pruning always keeps a topic's newest.
    func lastSeq(of topic: String) async throws -> Int {
        try await executor.readFirst("SELECT max(seq) AS value FROM event_log WHERE topic = \(bind: topic)", as: SQLOptionalInt.self)?.value ?? 0
    }

    /// Each topic's newest number, in one read (topics without events are left out).
    func lastSeqs(of topics: [String]) async throws -> [String: Int] {
        guard !topics.isEmpty else { return [:] }
        let rows = try await executor.read(
            "SELECT topic, max(seq) AS seq FROM event_log WHERE topic IN (\(list: topics)) GROUP BY topic", as: TopicSeq.self
        )
        return Dictionary(rows.map { ($0.topic, $0.seq) }, uniquingKeysWith: max)
    }

    private struct TopicSeq: SQLRowDecodable {
        let topic: String
        let seq: Int
        init(row: some SQLRow) throws {
            topic = try row.string("topic")
            seq = try row.int("seq")
        }
    }

    /// The oldest number still kept in the topic (nil when none is): a client whose last event is older than this
    /// minus one has missed some for good.
    func oldestSeq(of topic: String) async throws -> Int? {
        try await executor.readFirst("SELECT min(seq) AS value FROM event_log WHERE topic = \(bind: topic)", as: SQLOptionalInt.self)?.value
    }

    /// Removes events older than `keptFor` that are not among their topic's newest `keptPerTopic`. It reads the
    /// whole log, which holds at most ten minutes of writes beyond each topic's newest 10,000: meant to run now and
    /// then (a minute apart), not per write.
    @discardableResult
    func prune(now: Date = Date()) async throws -> Int {
        let rows = try await executor.write(
            """
            DELETE FROM event_log WHERE at < \(bind: now.addingTimeInterval(-Self.keptFor))
              AND seq <= (SELECT max(l.seq) FROM event_log l WHERE l.topic = event_log.topic) - \(bind: Self.keptPerTopic)
            RETURNING seq
            """,
            as: SQLInt.self
        )
        return rows.count
    }
}
