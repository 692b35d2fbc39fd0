import Foundation
import GRDB
import SproutWire

/// The changes the screens make (`DiaryStore`, `DiaryEditor`): each bumps the entry's `revision`, which puts it in
/// the outbox.
extension DiaryDatabase {
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
}
