import Foundation
import SproutWire

/// Brings the device's diary (`DiaryDatabase`) and the server's together: **push, then pull**.
///
/// - **Push**: every entry in the outbox is sent as it now is — a `PUT` with `baseUpdatedAt` (the server version
///   its text started from), or a `DELETE` for a local tombstone with the `baseUpdatedAt` of the version deleted
///   (404, already gone, counts as done; 409, edited on another device since, brings the entry back with that
///   edit: the engine reads it first and withdraws the deletion, so no edit is discarded unseen). A `PUT` is
///   idempotent, so one repeated after a crash or a lost answer does no harm. An entry edited while its `PUT` was
///   in flight stays in the outbox (its revision moved on) and is pushed again. One the server refuses (400, 413)
///   is kept, marked, and not sent again until it is edited. An entry whose only change is weather that arrived
///   after it was pushed is read from the server first, so the weather never undoes another device's edit.
/// - **Pull**: `changes(since:)` from the stored cursor, page after page while `hasMore`; each page is applied and
///   the cursor moved to its `now` in one transaction. A pulled change never overwrites an entry with an unpushed
///   local change (see `DiaryDatabase.apply`).
///
/// Everything it needs is in the database file, so an engine made after a restart carries on where the last one
/// stopped. Syncs do not overlap: a `sync()` called during another waits for it, then runs.
public actor DiarySyncEngine {
    /// The diary on the device.
    public let database: DiaryDatabase
    /// The waits between retries.
    public let backoff: DiaryBackoff
    /// Failures in a row (reset by a success): the next retry waits `backoff.delay(afterFailures:)` of it.
    public private(set) var consecutiveFailures = 0
    private let client: DiaryClient
    private let pageSize: Int
    private let sleep: @Sendable (Duration) async throws -> Void
    private var running: Task<DiarySyncReport, any Error>?
    /// The syncs live updates asked for, one after another (`DiarySyncEngine+Live.swift`).
    var liveSyncs: Task<Void, Never>?
    /// Whether a live update arrived since the running live sync started: one more follows it.
    var liveSyncWanted = false
    /// The last live sync's failure; nil after one that succeeded.
    public internal(set) var lastLiveSyncError: SproutError?

    /// The most rounds one push makes over the outbox (each round sends what was changed during the last).
    static let maximumPushRounds = 10

    /// - Parameters:
    ///   - database: the diary on the device.
    ///   - client: the Diary API, with the account's token (`Session.diary`).
    ///   - backoff: the waits between retries in `syncRetrying`.
    ///   - pageSize: changes per pull, 1…100.
    ///   - sleep: how a retry waits; tests pass one that returns at once.
    public init(
        database: DiaryDatabase, client: DiaryClient, backoff: DiaryBackoff = DiaryBackoff(), pageSize: Int = 100,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.database = database
        self.client = client
        self.backoff = backoff
        self.pageSize = min(max(pageSize, 1), 100)
        self.sleep = sleep
    }

    /// The wait before the next retry, after the failures so far.
    public var nextRetryDelay: Duration { backoff.delay(afterFailures: consecutiveFailures) }

    /// One sync: push the outbox, then pull what changed on the server.
    /// - Throws: the first failure; what was done before it stays done (and is not done again).
    @discardableResult
    public func sync() async throws(SproutError) -> DiarySyncReport {
        while let running { _ = try? await running.value }
        let task = Task { try await self.pushAndPull() }
        running = task
        defer { running = nil }
        do {
            // The sync runs in a task of its own (so a second caller can wait for it); cancelling the caller
            // cancels it.
            let report = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            consecutiveFailures = 0
            return report
        } catch let error as SproutError {
            if error.isRetryable { consecutiveFailures += 1 }
            throw error
        } catch {
            throw SproutError.storage(error, service: .diary, during: .sync)
        }
    }

    /// Syncs, and after a failure that may pass (no network, a server that cannot answer now) waits and tries
    /// again: 1 s, 2 s, 4 s, … up to `backoff.maximum`.
    /// - Parameter maxAttempts: how many syncs to try at most.
    /// - Throws: a failure that will not pass by waiting (401, a database error, cancellation), or the last one
    ///   after `maxAttempts`.
    @discardableResult
    public func syncRetrying(maxAttempts: Int = .max) async throws(SproutError) -> DiarySyncReport {
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try await sync()
            } catch where error.isRetryable && attempts < maxAttempts {
                do {
                    try await sleep(nextRetryDelay)
                } catch {
                    throw SproutError(service: .diary, kind: .cancelled, during: .sync)
                }
            }
        }
    }

    // MARK: Push and pull

    private func pushAndPull() async throws -> DiarySyncReport {
        var report = DiarySyncReport()
        try await push(into: &report)
        try await pull(into: &report)
        return report
    }

    private func push(into report: inout DiarySyncReport) async throws {
        var sent = Set<DiaryPushKey>()
        for _ in 0..<Self.maximumPushRounds {
            let items = try database.outbox().filter { !sent.contains(DiaryPushKey(id: $0.id, revision: $0.revision)) }
            if items.isEmpty { return }
            for item in items {
                sent.insert(DiaryPushKey(id: item.id, revision: item.revision))
                if item.isDeletion {
                    try await pushDeletion(item, into: &report)
                } else {
                    try await pushWrite(item, into: &report)
                }
            }
        }
    }

    private func pushWrite(_ item: DiaryOutboxItem, into report: inout DiarySyncReport) async throws {
        var item = item
        if item.isWeatherOnly, item.baseUpdatedAt != nil {
            // Weather that came after the entry was pushed is no edit: if another device wrote the entry since,
            // its text is taken first, and the weather goes on top of it (or is dropped with an entry deleted
            // there). The API has no conditional write, so this is a read before the write.
            do {
                let current = try await client.entry(id: item.id)
                if current.updatedAt != item.baseUpdatedAt {
                    try database.apply(DiaryChangeJSON(entry: current))
                    guard let refreshed = try database.outboxItem(item.id) else { return }
                    item = refreshed
                }
            } catch let error as SproutError where error.kind == .notFound {
                if try database.dropUnlessEdited(item.id) { return }
                guard let refreshed = try database.outboxItem(item.id) else { return }
                item = refreshed
            }
        }
        try database.markSending(item.id)
        do {
            let (entry, created) = try await client.put(id: item.id, write: item.write)
            try database.recordPushed(item.id, revision: item.revision, answer: entry)
            report.pushed += 1
            if created { report.created += 1 }
        } catch let error as SproutError where error.kind == .invalidRequest || error.kind == .tooLarge {
            try database.recordRefused(item.id, revision: item.revision, message: error.serverMessage ?? error.message)
            report.refused += 1
        }
    }

    private func pushDeletion(_ item: DiaryOutboxItem, into report: inout DiarySyncReport) async throws {
        do {
            try await client.delete(id: item.id, baseUpdatedAt: item.baseUpdatedAt)
        } catch where error.kind == .notFound {
            // Never created there, or deleted already: either way it is gone.
        } catch where error.statusCode == 409 {
            // Another device edited the entry after the version deleted here. Read it before deciding: the edit
            // comes back to this device instead of being thrown away unseen.
            let current: DiaryEntryJSON
            do {
                current = try await client.entry(id: item.id)
            } catch where error.kind == .notFound {
                // Deleted there in the meantime: gone either way.
                try database.recordDeleted(item.id)
                report.deleted += 1
                return
            }
            if try database.withdrawDeletion(item.id, revision: item.revision, current: current) { report.withdrawn += 1 }
            return
        }
        try database.recordDeleted(item.id)
        report.deleted += 1
    }

    private func pull(into report: inout DiarySyncReport) async throws {
        var cursor = try database.syncCursor() ?? DiaryClient.beginning
        while true {
            let page = try await client.changes(since: cursor, limit: pageSize)
            report.applied += try database.apply(page.changes, now: page.now)
            report.pages += 1
            cursor = page.now
            if !page.hasMore || page.changes.isEmpty { return }
        }
    }
}

/// An entry at one revision: what one push round has already sent.
private struct DiaryPushKey: Hashable {
    let id: UUID
    let revision: Int64
}
