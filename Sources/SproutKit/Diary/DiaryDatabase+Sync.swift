import Foundation
import GRDB
import SproutWire

/// What `DiarySyncEngine` records: pushes sent and acknowledged or refused, and pulled changes applied with the
/// cursor.
extension DiaryDatabase {
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

    /// The server kept an entry whose deletion this device sent (409): another device edited it after the version
    /// deleted here. The local tombstone (still at `revision`) becomes the server's `current` entry, with nothing
    /// left to push. Returns false, changing nothing, when the entry changed on the device meanwhile (the next
    /// push decides then).
    func withdrawDeletion(_ id: UUID, revision: Int64, current: DiaryEntryJSON) throws -> Bool {
        try queue.write { db in
            try db.execute(
                sql: """
                    UPDATE diaryEntry SET title = ?, body = ?, createdAt = ?, weather = ?, isDeleted = 0, serverUpdatedAt = ?,
                      pushedRevision = revision, maybeOnServer = 1, refusedRevision = NULL, refusal = NULL
                    WHERE id = ? AND isDeleted = 1 AND revision = ?
                    """,
                arguments: [
                    current.title, current.body, Self.milliseconds(current.createdAt), try Self.json(current.weather), current.updatedAt,
                    Self.key(id), revision,
                ]
            )
            return db.changesCount > 0
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
}
