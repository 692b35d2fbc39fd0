import Foundation
import GRDB
import SproutWire

/// The diary on the device: one SQLite database (GRDB) holding the entries, the outbox of changes not yet on the
/// server, and the sync cursor — everything a restart needs to carry on where it stopped. `DiaryStore` (the
/// screens) and `DiarySyncEngine` share one.
///
/// Each entry row keeps, besides its text: `revision` (bumped by every local change), `textRevision` (the revision
/// of the last local edit, insert or deletion — a change a person made, as opposed to weather arriving),
/// `pushedRevision` (the last revision the server acknowledged), `serverUpdatedAt` (the server's `updatedAt` of the version the local text
/// started from, sent as `baseUpdatedAt`), `isDeleted` (a local tombstone waiting for its `DELETE`), and
/// `maybeOnServer` (a `PUT` for it has been sent, so it may exist there even if no answer came back).
public final class DiaryDatabase: Sendable {
    let queue: DatabaseQueue

    /// Opens (or creates) the diary database at `path`, creating its directory.
    public init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        // Two connections to one file (an app and its extension, a test's restart) wait for each other.
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
        try Self.migrator.migrate(queue)
    }

    /// An in-memory diary, for previews and tests that do not need persistence.
    public init() throws {
        queue = try DatabaseQueue()
        try Self.migrator.migrate(queue)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createDiary") { db in
            try db.execute(sql: """
                CREATE TABLE diaryEntry (
                  id TEXT PRIMARY KEY NOT NULL,
                  title TEXT NOT NULL,
                  body TEXT NOT NULL,
                  createdAt INTEGER NOT NULL,
                  weather TEXT,
                  isDeleted INTEGER NOT NULL DEFAULT 0,
                  serverUpdatedAt TEXT,
                  revision INTEGER NOT NULL DEFAULT 0,
                  textRevision INTEGER NOT NULL DEFAULT 0,
                  pushedRevision INTEGER NOT NULL DEFAULT 0,
                  maybeOnServer INTEGER NOT NULL DEFAULT 0,
                  refusedRevision INTEGER,
                  refusal TEXT);
                CREATE INDEX diaryEntryOrder ON diaryEntry (isDeleted, createdAt DESC, id DESC);
                CREATE TABLE diarySyncState (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                """)
        }
        return migrator
    }

    // MARK: Reading

    /// Every live entry, newest first by `createdAt` (ties: `id` descending, as the server orders them).
    public func entries() throws -> [DiaryEntry] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM diaryEntry WHERE isDeleted = 0 ORDER BY createdAt DESC, id DESC").map(Self.entry(from:))
        }
    }

    /// The live entry `id`; nil when there is none (or it is deleted).
    public func entry(id: UUID) throws -> DiaryEntry? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM diaryEntry WHERE id = ? AND isDeleted = 0", arguments: [Self.key(id)]).map(Self.entry(from:))
        }
    }

    /// The changes waiting to be pushed, oldest entry first; entries whose current revision the server refused
    /// wait for an edit and are left out.
    public func outbox() throws -> [DiaryOutboxItem] {
        try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM diaryEntry WHERE revision > pushedRevision AND (refusedRevision IS NULL OR refusedRevision <> revision)
                ORDER BY createdAt, id
                """).compactMap(Self.outboxItem(from:))
        }
    }

    /// The `since` of the next pull: the `now` of the last one applied; nil before the first.
    public func syncCursor() throws -> String? {
        try queue.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM diarySyncState WHERE key = 'cursor'")
        }
    }

    // MARK: Local changes (the screens)

    /// Adds a new entry (to be pushed). Does nothing and returns false when `id` is already taken: a second
    /// insert of the same entry must not happen.
    @discardableResult
    func insert(id: UUID, title: String, body: String, createdAt: Date, weather: DiaryWeather? = nil) throws -> Bool {
        try insert([DiaryEntry(id: id, title: title, body: body, createdAt: createdAt, weather: weather)]) == 1
    }

    /// What `update` found.
    enum UpdateOutcome: Equatable {
        /// The text changed (to be pushed).
        case updated
        /// The entry already had that text: nothing to push.
        case unchanged
        /// No live entry: never saved, deleted here, or deleted on another device and pulled.
        case missing
    }

    /// Replaces a live entry's title and body (to be pushed) when they differ.
    func update(id: UUID, title: String, body: String) throws -> UpdateOutcome {
        try queue.write { db in
            try db.execute(
                sql: """
                    UPDATE diaryEntry SET title = ?, body = ?, revision = revision + 1, textRevision = revision + 1
                    WHERE id = ? AND isDeleted = 0 AND (title <> ? OR body <> ?)
                    """,
                arguments: [title, body, Self.key(id), title, body]
            )
            if db.changesCount > 0 { return .updated }
            let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM diaryEntry WHERE id = ? AND isDeleted = 0)", arguments: [Self.key(id)]) ?? false
            return exists ? .unchanged : .missing
        }
    }

    /// Whether the device holds a local tombstone for `id` (deleted here, the `DELETE` not acknowledged yet).
    func isDeletedLocally(_ id: UUID) throws -> Bool {
        try queue.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM diaryEntry WHERE id = ? AND isDeleted = 1)", arguments: [Self.key(id)]) ?? false
        }
    }

    /// Adds new entries (to be pushed) in one transaction; ids already taken are skipped. Returns how many were
    /// added.
    func insert(_ entries: [DiaryEntry]) throws -> Int {
        try queue.write { db in
            var added = 0
            for entry in entries {
                try db.execute(
                    sql: """
                        INSERT INTO diaryEntry (id, title, body, createdAt, weather, revision, textRevision) VALUES (?, ?, ?, ?, ?, 1, 1)
                        ON CONFLICT (id) DO NOTHING
                        """,
                    arguments: [
                        Self.key(entry.id), entry.title, entry.body, DiaryTimestamp.milliseconds(of: entry.createdAt), try Self.json(entry.weather),
                    ]
                )
                added += db.changesCount
            }
            return added
        }
    }

    /// Gives a live entry without weather its weather (to be pushed); returns false otherwise: an entry's
    /// weather is set once.
    @discardableResult
    func attachWeather(_ weather: DiaryWeather, to id: UUID) throws -> Bool {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE diaryEntry SET weather = ?, revision = revision + 1 WHERE id = ? AND isDeleted = 0 AND weather IS NULL",
                arguments: [try Self.json(weather), Self.key(id)]
            )
            return db.changesCount > 0
        }
    }

    /// Deletes an entry: one the server never had (no `PUT` was ever sent for it) goes at once; any other becomes a
    /// local tombstone until its `DELETE` is acknowledged. Returns false when there was no live entry.
    @discardableResult
    func delete(id: UUID) throws -> Bool {
        try queue.write { db in
            try db.execute(
                sql: "DELETE FROM diaryEntry WHERE id = ? AND isDeleted = 0 AND maybeOnServer = 0 AND serverUpdatedAt IS NULL",
                arguments: [Self.key(id)]
            )
            if db.changesCount > 0 { return true }
            try db.execute(
                sql: "UPDATE diaryEntry SET isDeleted = 1, revision = revision + 1, textRevision = revision + 1, refusedRevision = NULL, refusal = NULL WHERE id = ? AND isDeleted = 0",
                arguments: [Self.key(id)]
            )
            return db.changesCount > 0
        }
    }

    // MARK: Sync bookkeeping (the engine)

    /// Notes, before a `PUT` goes out, that the entry may be on the server from now on.
    func markSending(_ id: UUID) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE diaryEntry SET maybeOnServer = 1 WHERE id = ?", arguments: [Self.key(id)])
        }
    }

    /// The server acknowledged the `PUT` of `revision`. The entry takes the server's `updatedAt` as its new base;
    /// if it was not changed since, it takes the server's fields as well and leaves the outbox. An entry changed
    /// while the push was in flight keeps its text and stays in the outbox.
    func recordPushed(_ id: UUID, revision: Int64, answer: DiaryEntryJSON) throws {
        try queue.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM diaryEntry WHERE id = ?", arguments: [Self.key(id)]) else {
                // Gone from the device while its PUT was on the way (only another connection can do that): the
                // server has it now, so it needs a DELETE.
                try db.execute(
                    sql: """
                        INSERT INTO diaryEntry (id, title, body, createdAt, isDeleted, serverUpdatedAt, revision, textRevision, maybeOnServer)
                        VALUES (?, ?, ?, ?, 1, ?, ?, ?, 1)
                        """,
                    arguments: [
                        Self.key(id), answer.title, answer.body, Self.milliseconds(answer.createdAt), answer.updatedAt, revision + 1, revision + 1,
                    ]
                )
                return
            }
            let current: Int64 = row["revision"]
            try db.execute(
                sql: """
                    UPDATE diaryEntry SET serverUpdatedAt = ?, pushedRevision = MAX(pushedRevision, ?), maybeOnServer = 1,
                      refusedRevision = NULL, refusal = NULL WHERE id = ?
                    """,
                arguments: [answer.updatedAt, revision, Self.key(id)]
            )
            if current == revision {
                try db.execute(
                    sql: "UPDATE diaryEntry SET title = ?, body = ?, createdAt = ?, weather = ? WHERE id = ?",
                    arguments: [answer.title, answer.body, Self.milliseconds(answer.createdAt), try Self.json(answer.weather), Self.key(id)]
                )
            } else if let weather = answer.weather {
                try db.execute(sql: "UPDATE diaryEntry SET weather = ? WHERE id = ? AND weather IS NULL", arguments: [try Self.json(weather), Self.key(id)])
            }
        }
    }

    /// The server acknowledged the deletion (or already had none): the local tombstone goes.
    func recordDeleted(_ id: UUID) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM diaryEntry WHERE id = ? AND isDeleted = 1", arguments: [Self.key(id)])
        }
    }

    /// The server refused `revision` (400, 413): it stays on the device, marked, and is not pushed again until
    /// it is edited (a new revision).
    func recordRefused(_ id: UUID, revision: Int64, message: String) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE diaryEntry SET refusedRevision = ?, refusal = ? WHERE id = ? AND revision = ?",
                arguments: [revision, message, Self.key(id), revision]
            )
        }
    }

    /// Applies one page of pulled changes and moves the cursor to `now`, in one transaction: a crash leaves
    /// either both or neither. Returns how many entries changed on the device.
    ///
    /// A change never overwrites an entry with an unpushed edit or deletion (that change is pushed later and wins
    /// on the server, which keeps the replaced version). A tombstone deletes an entry without one; an entry with one
    /// is kept (its push brings it back on the server). An entry whose only unpushed change is its weather takes
    /// the remote text (keeping its weather, still to be pushed, unless the remote has some): weather arriving is
    /// no reason to undo another device's edit. A change not newer than the version the device has (its own push
    /// coming back, say) is skipped.
    func apply(_ changes: [DiaryChangeJSON], now: String) throws -> Int {
        try queue.write { db in
            var applied = 0
            for change in changes {
                if try Self.apply(change, in: db) { applied += 1 }
            }
            try db.execute(
                sql: "INSERT INTO diarySyncState (key, value) VALUES ('cursor', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                arguments: [now]
            )
            return applied
        }
    }

    /// Applies one change read outside a pull (an entry fetched before pushing its weather), by the rules of
    /// `apply(_:now:)`; the cursor stays. Returns whether the entry changed on the device.
    @discardableResult
    func apply(_ change: DiaryChangeJSON) throws -> Bool {
        try queue.write { db in try Self.apply(change, in: db) }
    }

    /// Drops an entry whose only unpushed change is its weather (the server no longer has the entry); returns
    /// false, changing nothing, when it holds an edit or a deletion of the device's own.
    @discardableResult
    func dropUnlessEdited(_ id: UUID) throws -> Bool {
        try queue.write { db in
            try db.execute(
                sql: "DELETE FROM diaryEntry WHERE id = ? AND isDeleted = 0 AND textRevision <= pushedRevision",
                arguments: [Self.key(id)]
            )
            return db.changesCount > 0
        }
    }

    /// The outbox item of `id`, if it is still in the outbox.
    func outboxItem(_ id: UUID) throws -> DiaryOutboxItem? {
        try queue.read { db in
            try Row.fetchOne(db, sql: """
                SELECT * FROM diaryEntry WHERE id = ? AND revision > pushedRevision AND (refusedRevision IS NULL OR refusedRevision <> revision)
                """, arguments: [Self.key(id)]).flatMap(Self.outboxItem(from:))
        }
    }

    private static func apply(_ change: DiaryChangeJSON, in db: Database) throws -> Bool {
        guard let id = UUID(uuidString: change.id) else { return false }
        let key = Self.key(id)
        let row = try Row.fetchOne(db, sql: "SELECT * FROM diaryEntry WHERE id = ?", arguments: [key])
        var pendingWeather: DiaryWeather?
        if let row {
            let revision: Int64 = row["revision"]
            let pushed: Int64 = row["pushedRevision"]
            let textRevision: Int64 = row["textRevision"]
            let isDeleted: Bool = row["isDeleted"]
            if isDeleted && change.deleted {
                // A local deletion meeting a remote one: nothing left to push.
                try db.execute(sql: "DELETE FROM diaryEntry WHERE id = ?", arguments: [key])
                return true
            }
            if textRevision > pushed { return false }
            let known: String? = row["serverUpdatedAt"]
            if let known, let knownTime = DiaryTimestamp.milliseconds(from: known),
               let changeTime = DiaryTimestamp.milliseconds(from: change.updatedAt), changeTime <= knownTime {
                return false
            }
            if revision > pushed && change.weather == nil { pendingWeather = weather(row["weather"]) }
        }
        if change.deleted {
            try db.execute(sql: "DELETE FROM diaryEntry WHERE id = ?", arguments: [key])
            return db.changesCount > 0
        }
        // Clean afterwards, unless a weather of the device's own is still to be pushed.
        let revision: Int64 = row?["revision"] ?? 0
        let pushed: Int64 = pendingWeather == nil ? revision : (row?["pushedRevision"] ?? 0)
        try db.execute(
            sql: """
                INSERT INTO diaryEntry (id, title, body, createdAt, weather, isDeleted, serverUpdatedAt, revision, pushedRevision, maybeOnServer)
                VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, 1)
                ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body, createdAt = excluded.createdAt,
                  weather = excluded.weather, isDeleted = 0, serverUpdatedAt = excluded.serverUpdatedAt,
                  pushedRevision = excluded.pushedRevision, maybeOnServer = 1, refusedRevision = NULL, refusal = NULL
                """,
            arguments: [
                key, change.title ?? "", change.body ?? "", milliseconds(change.createdAt ?? change.updatedAt),
                try json(change.weather ?? pendingWeather), change.updatedAt, revision, pushed,
            ]
        )
        return true
    }

    // MARK: Rows

    static func key(_ id: UUID) -> String { id.uuidString.lowercased() }

    private static func milliseconds(_ timestamp: String) -> Int64 {
        DiaryTimestamp.milliseconds(from: timestamp) ?? 0
    }

    private static func json(_ weather: DiaryWeather?) throws -> String? {
        guard let weather else { return nil }
        return String(decoding: try JSONEncoder().encode(weather), as: UTF8.self)
    }

    private static func weather(_ text: String?) -> DiaryWeather? {
        text.flatMap { try? JSONDecoder().decode(DiaryWeather.self, from: Data($0.utf8)) }
    }

    private static func entry(from row: Row) -> DiaryEntry {
        let revision: Int64 = row["revision"]
        let pushed: Int64 = row["pushedRevision"]
        let refused: Int64? = row["refusedRevision"]
        return DiaryEntry(
            id: UUID(uuidString: row["id"]) ?? UUID(), title: row["title"], body: row["body"],
            createdAt: Date(timeIntervalSince1970: Double(row["createdAt"] as Int64) / 1000), weather: weather(row["weather"]),
            hasUnpushedChanges: revision > pushed, pushRefusal: refused == revision ? row["refusal"] : nil
        )
    }

    private static func outboxItem(from row: Row) -> DiaryOutboxItem? {
        guard let id = UUID(uuidString: row["id"]) else { return nil }
        let isDeletion: Bool = row["isDeleted"]
        let textRevision: Int64 = row["textRevision"]
        let pushed: Int64 = row["pushedRevision"]
        return DiaryOutboxItem(
            id: id, revision: row["revision"], isDeletion: isDeletion, isWeatherOnly: !isDeletion && textRevision <= pushed,
            baseUpdatedAt: row["serverUpdatedAt"], title: row["title"], body: row["body"], createdAtMilliseconds: row["createdAt"],
            weather: weather(row["weather"])
        )
    }
}
