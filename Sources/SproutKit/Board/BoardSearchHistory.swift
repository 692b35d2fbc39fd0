import Foundation
import GRDB
import SproutWire

/// One remembered search: a text and the target it was searched in.
public struct BoardSearchEntry: Sendable, Hashable, Identifiable {
    /// The text, trimmed.
    public var text: String
    /// Where it was searched.
    public var target: BoardSearchTarget
    /// When it was last searched.
    public var searchedAt: Date

    /// An entry from its parts.
    public init(text: String, target: BoardSearchTarget, searchedAt: Date) {
        self.text = text
        self.target = target
        self.searchedAt = searchedAt
    }

    /// The pair identifies the entry: there is at most one per text and target.
    public var id: BoardSearchQuery { query }

    /// The search to run again.
    public var query: BoardSearchQuery { BoardSearchQuery(text: text, target: target) }
}

/// The searches a person made, kept on the device in SQLite (the original apps kept them in CoreData): one entry
/// per (text, target) pair, most recent first. Searching a pair again moves it to the top; beyond `capacity`
/// entries the oldest go. Nothing is sent to the server.
public final class BoardSearchHistory: Sendable {
    /// The most entries kept.
    public let capacity: Int
    private let database: DatabaseQueue

    /// Opens (or creates) the history database at `path`.
    /// - Parameter capacity: the most entries kept (at least 1).
    public init(path: String, capacity: Int = 50) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.capacity = max(1, capacity)
        database = try DatabaseQueue(path: path)
        try Self.migrator.migrate(database)
    }

    /// An in-memory history, for previews and tests that do not need persistence.
    public init(capacity: Int = 50) throws {
        self.capacity = max(1, capacity)
        database = try DatabaseQueue()
        try Self.migrator.migrate(database)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createBoardSearchHistory") { db in
            // `sequence` orders entries: two searches in the same clock tick still keep their order.
            try db.execute(sql: """
                CREATE TABLE boardSearchHistory (
                  text TEXT NOT NULL, target TEXT NOT NULL, searchedAt DOUBLE NOT NULL, sequence INTEGER NOT NULL,
                  PRIMARY KEY (text, target))
                """)
        }
        return migrator
    }

    /// Remembers a search at the top: a new pair is added, a known one moves up and takes `date`. Text is
    /// trimmed; an empty one is ignored (returns false). The oldest entries beyond `capacity` are dropped.
    @discardableResult
    public func save(_ query: BoardSearchQuery, at date: Date = Date()) throws -> Bool {
        let text = query.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return false }
        try database.write { db in
            let next = (try Int.fetchOne(db, sql: "SELECT MAX(sequence) FROM boardSearchHistory") ?? 0) + 1
            try db.execute(
                sql: """
                    INSERT INTO boardSearchHistory (text, target, searchedAt, sequence) VALUES (?, ?, ?, ?)
                    ON CONFLICT (text, target) DO UPDATE SET searchedAt = excluded.searchedAt, sequence = excluded.sequence
                    """,
                arguments: [text, query.target.rawValue, date.timeIntervalSince1970, next]
            )
            try db.execute(
                sql: """
                    DELETE FROM boardSearchHistory WHERE sequence NOT IN
                      (SELECT sequence FROM boardSearchHistory ORDER BY sequence DESC LIMIT ?)
                    """,
                arguments: [capacity]
            )
        }
        return true
    }

    /// Every entry, most recent first.
    public func entries() throws -> [BoardSearchEntry] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT text, target, searchedAt FROM boardSearchHistory ORDER BY sequence DESC").map { row in
                BoardSearchEntry(
                    text: row["text"], target: BoardSearchTarget(rawValue: row["target"]) ?? .all,
                    searchedAt: Date(timeIntervalSince1970: row["searchedAt"])
                )
            }
        }
    }

    /// Forgets one entry (its text, trimmed, and target). Returns false when there was none.
    @discardableResult
    public func delete(_ query: BoardSearchQuery) throws -> Bool {
        try database.write { db in
            try db.execute(
                sql: "DELETE FROM boardSearchHistory WHERE text = ? AND target = ?",
                arguments: [query.text.trimmingCharacters(in: .whitespacesAndNewlines), query.target.rawValue]
            )
            return db.changesCount > 0
        }
    }

    /// Forgets every entry.
    public func removeAll() throws {
        try database.write { db in
            try db.execute(sql: "DELETE FROM boardSearchHistory")
        }
    }
}
