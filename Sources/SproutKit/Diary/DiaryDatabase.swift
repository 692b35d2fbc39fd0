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

    // MARK: Rows

    static func key(_ id: UUID) -> String { id.uuidString.lowercased() }

    static func milliseconds(_ timestamp: String) -> Int64 {
        DiaryTimestamp.milliseconds(from: timestamp) ?? 0
    }

    static func json(_ weather: DiaryWeather?) throws -> String? {
        guard let weather else { return nil }
        return String(decoding: try JSONEncoder().encode(weather), as: UTF8.self)
    }

    static func weather(_ text: String?) -> DiaryWeather? {
        text.flatMap { try? JSONDecoder().decode(DiaryWeather.self, from: Data($0.utf8)) }
    }

    static func entry(from row: Row) -> DiaryEntry {
        let revision: Int64 = row["revision"]
        let pushed: Int64 = row["pushedRevision"]
        let refused: Int64? = row["refusedRevision"]
        return DiaryEntry(
            id: UUID(uuidString: row["id"]) ?? UUID(), title: row["title"], body: row["body"],
            createdAt: Date(timeIntervalSince1970: Double(row["createdAt"] as Int64) / 1000), weather: weather(row["weather"]),
            hasUnpushedChanges: revision > pushed, pushRefusal: refused == revision ? row["refusal"] : nil
        )
    }

    static func outboxItem(from row: Row) -> DiaryOutboxItem? {
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
