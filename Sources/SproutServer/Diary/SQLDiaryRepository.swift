import Foundation
import SproutWire

/// Diary entries in SQL, written once for both databases (docs/diary-api.md, docs/data-layer.md).
///
/// Every write moves the account's clock in the same transaction as the entry (`writeSequence`): on PostgreSQL
/// the clock row's lock orders one account's writes, so `updated_ms` grows in commit order; on SQLite the single
/// writer does the same. A `PUT` reads the entry, decides, and writes only if the entry is still the version it
/// read (compare-and-set on `updated_ms`), trying again otherwise.
struct SQLDiaryRepository: Sendable {
    let executor: any SQLExecutor
    /// The most versions kept per entry, of every kind (`DIARY_KEPT_VERSIONS`): a client that never sends
    /// `baseUpdatedAt` makes every autosave a `conflict` version, and those must not grow without bound.
    var keptVersions = SQLDiaryRepository.defaultKeptVersions

    static let defaultKeptVersions = 50
    static let keptVersionsRange = 1...1000

    /// PUTs of one entry, one at a time in this process.
    let writers = KeyedTurns(perKey: 1)
    /// The most versions `/versions` answers with.
    static let versionsShown = 100

    /// The entry or its tombstone; nil if the account never had it.
    func entry(accountID: Int, id: String) async throws -> DiaryEntry? {
        let statement: SQLStatement =
            "SELECT \(raw: DiaryEntry.columns) FROM diary_entries WHERE account_id = \(bind: accountID) AND entry_id = \(bind: id)"
        return try await executor.readFirst(statement.prepared(), as: DiaryEntry.self)
    }

    /// Writes only over the version it read. PUTs of one entry take turns in this process (`KeyedTurns`); one
    /// overtaken by a write of another process reads again (within `OvertakenWrite.Budget`), so a PUT does
    /// not fail because another landed.
    func put(accountID: Int, id: String, write: DiaryWrite, now: Date) async throws -> DiaryPutOutcome {
        let nowMilliseconds = Int(DiaryTimestamp.milliseconds(of: now))
        return try await writers.run("\(accountID):\(id)") {
            var budget = OvertakenWrite.Budget()
            while true {
                let current = try await entry(accountID: accountID, id: id)
                let live = current.flatMap { $0.deleted ? nil : $0 }
                let content = write.content(replacing: live?.content, now: nowMilliseconds)
                if let live, live.content == content { return .replaced(live) }
                let written = try await executor.writeSequence([
                    clockTick(accountID: accountID, now: nowMilliseconds),
                    pruneVersions(accountID: accountID, id: id),
                    upsert(accountID: accountID, id: id, content: content, base: write.baseMilliseconds, expected: current?.updatedMilliseconds),
                ], as: DiaryEntry.self)
                if let entry = written.first { return live == nil ? .created(entry) : .replaced(entry) }
                guard !budget.overtaken() else { throw DiaryError.busy }
                try await OvertakenWrite.pause()
            }
        }
    }

    /// Turns a live entry into a tombstone; nil when there is no live entry.
    enum DeleteOutcome: Equatable {
        case deleted(DiaryEntry)
        /// No live entry has this id.
        case notFound
        /// The entry moved on since `base`: another device wrote it, and this device has not seen that write.
        case moved(DiaryEntry)
    }

    /// Turns the entry into a tombstone; with `base`, only while the entry's `updatedAt` is still `base`.
    func delete(accountID: Int, id: String, base: Int? = nil, now: Date) async throws -> DeleteOutcome {
        var deletion: SQLStatement = """
            UPDATE diary_entries SET deleted = TRUE, title = '', body = '', weather_main = NULL, weather_description = NULL,
              weather_icon = NULL, weather_temp_c = NULL, base_ms = NULL,
              updated_ms = (SELECT last_ms FROM diary_clocks WHERE account_id = \(bind: accountID))
            WHERE account_id = \(bind: accountID) AND entry_id = \(bind: id) AND deleted = FALSE
            """
        if let base { deletion.append(" AND updated_ms = \(bind: base)") }
        deletion.append(" RETURNING \(raw: DiaryEntry.columns)")
        let tombstone = try await executor.writeSequence([
            clockTick(accountID: accountID, now: Int(DiaryTimestamp.milliseconds(of: now))),
            pruneVersions(accountID: accountID, id: id),
            deletion,
        ], as: DiaryEntry.self).first
        if let tombstone { return .deleted(tombstone) }
        guard base != nil, let current = try await entry(accountID: accountID, id: id), !current.deleted else { return .notFound }
        return .moved(current)
    }

    /// Live entries newest first by `createdAt` (ties: id descending), and how many there are.
    func page(accountID: Int, limit: Int, offset: Int) async throws -> (entries: [DiaryEntry], total: Int) {
        async let entries = executor.read("""
            SELECT \(raw: DiaryEntry.columns) FROM diary_entries WHERE account_id = \(bind: accountID) AND deleted = FALSE
            ORDER BY created_ms DESC, entry_id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)
            """, as: DiaryEntry.self)
        async let total = executor.readFirst(
            "SELECT count(*) FROM diary_entries WHERE account_id = \(bind: accountID) AND deleted = FALSE", as: SQLInt.self
        )
        return (try await entries, try await total?.value ?? 0)
    }

    /// What changed strictly after `since`, oldest first. The clock moves first, in a transaction of its own:
    /// a write that moved it earlier has committed by then (it held the clock until its commit), and a write that
    /// moves it later gets a later `updated_ms` than the `now` answered.
    func changes(accountID: Int, since: Int, limit: Int, now: Date) async throws -> DiaryChanges {
        let tick = try await executor.writeFirst(clockTick(accountID: accountID, now: Int(DiaryTimestamp.milliseconds(of: now))), as: SQLInt.self)
        guard let clock = tick?.value else { throw SQLRowError.missingReturnedRow }
        let changed: SQLStatement = """
            SELECT \(raw: DiaryEntry.columns) FROM diary_entries
            WHERE account_id = \(bind: accountID) AND updated_ms > \(bind: since) AND updated_ms <= \(bind: clock)
            ORDER BY updated_ms LIMIT \(bind: limit + 1)
            """
        let rows = try await executor.read(changed.prepared(), as: DiaryEntry.self)
        guard rows.count > limit else { return DiaryChanges(changes: rows, nowMilliseconds: clock, hasMore: false) }
        let page = Array(rows.prefix(limit))
        return DiaryChanges(changes: page, nowMilliseconds: page[page.count - 1].updatedMilliseconds, hasMore: true)
    }

    /// The versions writes and deletions replaced, newest first; nil if the account never had the entry.
    func versions(accountID: Int, id: String) async throws -> [DiaryVersion]? {
        guard try await entry(accountID: accountID, id: id) != nil else { return nil }
        return try await executor.read("""
            SELECT \(raw: DiaryVersion.columns) FROM diary_versions WHERE account_id = \(bind: accountID) AND entry_id = \(bind: id)
            ORDER BY id DESC LIMIT \(bind: Self.versionsShown)
            """, as: DiaryVersion.self)
    }

    /// Moves the account's clock to at least 1 ms past its last value and not behind `now`.
    private func clockTick(accountID: Int, now: Int) -> SQLStatement {
        let greatest = executor.dialect == .sqlite ? "max" : "GREATEST"
        let statement: SQLStatement = """
            INSERT INTO diary_clocks (account_id, last_ms) VALUES (\(bind: accountID), \(bind: now))
            ON CONFLICT (account_id) DO UPDATE SET last_ms = \(raw: greatest)(diary_clocks.last_ms + 1, excluded.last_ms)
            RETURNING last_ms
            """
        return statement.prepared()
    }

    /// Keeps the newest `keptVersions - 1` versions of the entry, in the transaction of a write that may add one
    /// (the `diary_versions_keep` trigger copies the version it replaces), so at most `keptVersions` remain.
    private func pruneVersions(accountID: Int, id: String) -> SQLStatement {
        let statement: SQLStatement = """
            DELETE FROM diary_versions WHERE account_id = \(bind: accountID) AND entry_id = \(bind: id) AND id NOT IN (
              SELECT id FROM diary_versions WHERE account_id = \(bind: accountID) AND entry_id = \(bind: id)
              ORDER BY id DESC LIMIT \(bind: keptVersions - 1))
            """
        return statement.prepared()
    }

    /// Creates the entry, or replaces it if it is still at `expected` (-1: the caller saw none).
    private func upsert(accountID: Int, id: String, content: DiaryContent, base: Int?, expected: Int?) -> SQLStatement {
        let weather = content.weather
        let statement: SQLStatement = """
            INSERT INTO diary_entries (account_id, entry_id, title, body, created_ms, updated_ms, weather_main, weather_description,
              weather_icon, weather_temp_c, deleted, base_ms)
            VALUES (
              \(bind: accountID), \(bind: id), \(bind: content.title), \(bind: content.body), \(bind: content.createdMilliseconds),
              (SELECT last_ms FROM diary_clocks WHERE account_id = \(bind: accountID)),
              \(bind: weather?.main), \(bind: weather?.description), \(bind: weather?.icon), \(bind: weather?.tempC), FALSE, \(bind: base)
            )
            ON CONFLICT (account_id, entry_id) DO UPDATE SET title = excluded.title, body = excluded.body,
              created_ms = excluded.created_ms, updated_ms = excluded.updated_ms, weather_main = excluded.weather_main,
              weather_description = excluded.weather_description, weather_icon = excluded.weather_icon,
              weather_temp_c = excluded.weather_temp_c, deleted = FALSE, base_ms = excluded.base_ms
            WHERE diary_entries.updated_ms = \(bind: expected ?? -1)
            RETURNING \(raw: DiaryEntry.columns)
            """
        // Prepared, as every statement of a PUT: parsing and planning them was a third of PostgreSQL's time for one.
        return statement.prepared()
    }
}
