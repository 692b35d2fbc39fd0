/// A table whose changes are events (`docs/events.md`): every insert, watched update and delete appends one row
/// to `event_log` under the row's topic, by a trigger, in the writing transaction — so an event exists exactly
/// when its change committed, whichever code path made it (an API call, the console, a command, a cascade).
///
/// Each topic numbers its own events 1, 2, 3… in commit order, so a client that saw number N has seen every event
/// before it. On SQLite the one writer makes that plain: the next number is the topic's largest plus one, read from
/// the log's key (one B-tree insert per event: a create costs about 7 % more, against 15 % with a separate counter
/// row, `docs/events.md`). On PostgreSQL the number comes from the topic's row in `event_topics`, which stays locked
/// until the transaction ends, so concurrent writers of one topic commit their numbers in order.
struct EventSource: Sendable {
    /// The table.
    let table: String
    /// The event names' first part: `post.created`, `board-post.deleted`.
    let noun: String
    /// SQL for the row's topic, over the row named by the argument (`NEW`, `OLD`, or PostgreSQL's record `r`).
    let topic: @Sendable (String) -> String
    /// SQL for the item's id as text.
    let item: @Sendable (String) -> String
    /// SQL for the id of what holds the item (a comment's post), or nil.
    let parent: (@Sendable (String) -> String)?
    /// The columns whose change is an `updated` event (a view count is not one).
    let watched: [String]
    /// Watched columns first set (from NULL) by the creating transaction itself, which is then no update: a
    /// product's thumbnail, set once its images are in.
    var setOnCreation: [String] = []

    /// Every source: what the five apps show in lists, and the diary for its owner's other devices.
    static let all: [EventSource] = [
        EventSource(table: "posts", noun: "post", topic: { _ in "'community'" }, item: { "CAST(\($0).id AS TEXT)" }, parent: nil,
                    watched: ["text", "hidden_at"]),
        EventSource(table: "comments", noun: "comment", topic: { _ in "'community'" }, item: { "CAST(\($0).id AS TEXT)" },
                    parent: { "\($0).post_id" }, watched: ["comment", "hidden_at"]),
        EventSource(table: "board_posts", noun: "board-post", topic: { "'board:' || \($0).board_id" }, item: { "CAST(\($0).id AS TEXT)" },
                    parent: nil, watched: ["title", "contents", "hidden_at", "pinned_at"]),
        EventSource(table: "market_products", noun: "product", topic: { _ in "'market'" }, item: { "CAST(\($0).id AS TEXT)" }, parent: nil,
                    watched: ["name", "description", "currency", "price", "discounted_price", "stock", "thumbnail_image_id", "hidden_at"],
                    setOnCreation: ["thumbnail_image_id"]),
        EventSource(table: "todos", noun: "todo", topic: { "'todos:' || coalesce(CAST(\($0).owner_id AS TEXT), 'shared')" },
                    item: { "CAST(\($0).id AS TEXT)" }, parent: nil, watched: ["title", "is_done", "updated_at"]),
        EventSource(table: "diary_entries", noun: "entry", topic: { "'diary:' || \($0).account_id" }, item: { "\($0).entry_id" },
                    parent: nil, watched: ["updated_ms"]),
    ]

    enum Change: String, CaseIterable {
        case created, updated, deleted
    }

    /// SQL that is true when a watched column changed (`differs`: the dialect's null-safe "not equal").
    private func changed(differs: String) -> String {
        watched.map { column in
            let change = "OLD.\(column) \(differs) NEW.\(column)"
            return setOnCreation.contains(column) ? "(OLD.\(column) IS NOT NULL AND \(change))" : change
        }.joined(separator: " OR ")
    }

    /// SQLite: one trigger per change. The topic's row is made or bumped, then the event takes its number.
    func sqliteTriggers() -> [String] {
        Change.allCases.map { change in
            let row = change == .deleted ? "OLD" : "NEW"
            let when: String
            let event: String
            switch change {
            case .created:
                (event, when) = ("AFTER INSERT ON \(table)", "")
            case .updated:
                (event, when) = ("AFTER UPDATE OF \(watched.joined(separator: ", ")) ON \(table)", " WHEN \(changed(differs: "IS NOT"))")
            case .deleted:
                (event, when) = ("AFTER DELETE ON \(table)", "")
            }
            let topic = topic(row)
            return """
                CREATE TRIGGER \(table)_event_\(change.rawValue) \(event)\(when) BEGIN
                  INSERT INTO event_log (topic, seq, action, item, parent, at)
                  SELECT \(topic), coalesce(max(seq), 0) + 1, '\(noun).\(change.rawValue)', \(item(row)), \(parent?(row) ?? "NULL"),
                    \(EventMigrations.sqliteNow)
                  FROM event_log WHERE topic = \(topic);
                END
                """
        }
    }

    /// PostgreSQL: one function for the three changes, and its triggers. `pg_notify` tells every node's listener
    /// the topic and number at commit (small: the event itself is read from `event_log`).
    func postgresStatements() -> [String] {
        let changed = changed(differs: "IS DISTINCT FROM")
        return [
            """
            CREATE FUNCTION \(table)_event() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
              r \(table)%ROWTYPE;
              t text;
              s bigint;
            BEGIN
              IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
              t := \(topic("r"));
              INSERT INTO event_topics AS e (topic, last_seq) VALUES (t, 1)
                ON CONFLICT (topic) DO UPDATE SET last_seq = e.last_seq + 1 RETURNING e.last_seq INTO s;
              INSERT INTO event_log (topic, seq, action, item, parent, at)
                VALUES (t, s, '\(noun).' || CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'deleted' END,
                        \(item("r")), \(parent?("r") ?? "NULL"), now());
              PERFORM pg_notify('\(EventMigrations.channel)', t || ' ' || s);
              RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER \(table)_event_created AFTER INSERT ON \(table) FOR EACH ROW EXECUTE FUNCTION \(table)_event()",
            """
            CREATE TRIGGER \(table)_event_updated AFTER UPDATE OF \(watched.joined(separator: ", ")) ON \(table) FOR EACH ROW
              WHEN (\(changed)) EXECUTE FUNCTION \(table)_event()
            """,
            "CREATE TRIGGER \(table)_event_deleted AFTER DELETE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(table)_event()",
        ]
    }
}
