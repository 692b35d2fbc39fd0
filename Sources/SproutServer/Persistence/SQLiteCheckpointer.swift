import Foundation
import GRDBSQLite
import NIOConcurrencyHelpers

/// Runs SQLite's WAL checkpoints on a connection and a thread of their own, so that the writer's commits do not
/// wait for a checkpoint's copy into the database file and its `fsync`.
///
/// Why: SQLite checkpoints inside the commit that takes the WAL past 1,000 pages. While a backup holds its
/// snapshot no checkpoint can pass it, so the first commit after the snapshot is released copied the whole
/// backlog (about 16,000 pages after a 12 s backup of 1 GB under 1,000 creates/s) and every write queued behind
/// it for 180 ms (`perf` off-CPU stacks of the writer thread, docs/benchmarks.md).
///
/// How: the writer's WAL hook (which replaces SQLite's automatic checkpoint) wakes this thread once the log
/// holds `wakeAt` pages, and the thread checkpoints PASSIVE (it never blocks the writer or readers). A log is
/// only started over from its beginning once every page has been copied and no commit came in between, which
/// under a steady load a checkpoint on another thread rarely sees; so once the background pass has copied all
/// but a short tail (`inlineAllowance`), the writer finishes the rest itself after a commit (a few pages and one
/// `fsync`), as SQLite would have, and its next transaction restarts the log. If a checkpoint runs when the writer
/// would finish, the writer skips it (`SQLITE_BUSY`) rather than wait.
final class SQLiteCheckpointer: @unchecked Sendable {
    /// The log's size, in pages, that starts a background pass (SQLite's automatic checkpoint's default).
    static let wakeAt: Int32 = 1000
    /// At most this many pages left to copy: the writer copies them itself.
    static let inlineTail: Int32 = 256

    /// Background passes over one log after which the writer may copy more than the tail.
    static let passesBeforeLargerTail = 4

    /// The pages the writer may copy itself with a log of `logPages`: the tail, or after several background
    /// passes an eighth of a long log. Under writes faster than a background pass can catch up with (a slow
    /// disk's `fsync`), the pages left after each pass stay about the same while the log grows; this bound lets
    /// the writer close the gap and restart the log before it grows without end.
    static func inlineAllowance(logPages: Int32, passes: Int) -> Int32 {
        passes < passesBeforeLargerTail ? inlineTail : max(inlineTail, logPages / 8)
    }
    /// After a pass that copied nothing (a reader's snapshot holds the log), wait this long before the next.
    static let pauseWhenStuck: TimeInterval = 0.1

    /// What the checkpoints did, for tests.
    struct Statistics: Sendable, Equatable {
        var backgroundPasses = 0
        var inlineCheckpoints = 0
        /// The most pages one of the writer's own checkpoints copied.
        var largestInlineCopy: Int32 = 0
    }

    private struct State {
        var wanted = false
        var running = false
        var closed = false
        /// Pages of the current log known to be in the database file.
        var backfilled: Int32 = 0
        /// The log's size at the writer's last commit: a smaller one means the log started over.
        var logPages: Int32 = 0
        var passesOverThisLog = 0
        var statistics = Statistics()
        /// The writer's hold on `self`, from `attach` to `close`.
        var writerHold: Unmanaged<SQLiteCheckpointer>?
    }

    /// The action is held in a struct: a closure kept bare in the generic box was reabstracted by every
    /// `withLockedValue` and written back wrapped in two more thunks, so each commit called it through a deeper chain
    /// (35,000 frames after a benchmark's 100,000 creates, which then ran at a third of their rate).
    private struct CommitAction: Sendable {
        let run: @Sendable () -> Void
    }

    private let afterCommit = NIOLockedValueBox<CommitAction?>(nil)
    private let condition = NSCondition()
    private var state = State()  // guarded by `condition`
    private let handle: OpaquePointer

    /// Opens the checkpointing connection on `path` (which must exist and be in WAL mode) and starts its thread.
    init(path: String) throws {
        // One read opens the WAL on this connection (a checkpoint on a connection that has read nothing yet may
        // find no WAL to copy from).
        handle = try SQLiteReadConnection.openConnection(path: path, setup: "SELECT count(*) FROM sqlite_master")
        let thread = Thread { [self] in runPasses() }
        thread.name = "sqlite-checkpointer"
        thread.start()
    }

    /// Installs the hook on the writer's connection `writer` (once), which holds `self` until `close()`.
    func attach(toWriter writer: OpaquePointer) {
        let context = Unmanaged.passRetained(self)
        condition.lock()
        precondition(state.writerHold == nil, "one writer per checkpointer")
        state.writerHold = context
        condition.unlock()
        sqlite3_wal_hook(writer, { context, connection, _, pages in
            guard let context, let connection else { return SQLITE_OK }
            let checkpointer = Unmanaged<SQLiteCheckpointer>.fromOpaque(context).takeUnretainedValue()
            checkpointer.committed(logPages: pages, on: connection)
            checkpointer.afterCommit.withLockedValue { $0 }?.run()
            return SQLITE_OK
        }, context.toOpaque())
    }

    /// Runs `action` on the writer's thread after each of its commits (the event hub's wake-up,
    /// `SQLiteEventSignals`). It must be quick and must not use the database.
    func afterEachCommit(_ action: @escaping @Sendable () -> Void) {
        afterCommit.withLockedValue { $0 = CommitAction(run: action) }
    }

    /// The log's size, in pages, after the writer's last commit.
    var logPages: Int32 {
        condition.lock()
        defer { condition.unlock() }
        return state.logPages
    }

    var statistics: Statistics {
        condition.lock()
        defer { condition.unlock() }
        return state.statistics
    }

    /// Stops the thread and closes its connection. Close the writer's connection first. (The thread holds `self`
    /// until then.)
    func close() {
        condition.lock()
        guard !state.closed else { return condition.unlock() }
        state.closed = true
        condition.broadcast()
        while state.running { condition.wait() }
        let hold = state.writerHold
        state.writerHold = nil
        condition.unlock()
        sqlite3_close_v2(handle)
        hold?.release()
    }

    /// Called by SQLite on the writer's thread after each commit, with the log's size in pages.
    private func committed(logPages pages: Int32, on writer: OpaquePointer) {
        condition.lock()
        if pages < state.logPages {
            state.backfilled = 0
            state.passesOverThisLog = 0
        }
        state.logPages = pages
        var copiesTail = false
        if pages >= Self.wakeAt && !state.running && !state.wanted && !state.closed {
            if pages - min(state.backfilled, pages) <= Self.inlineAllowance(logPages: pages, passes: state.passesOverThisLog) {
                copiesTail = true
            } else {
                state.wanted = true
                condition.signal()
            }
        }
        let before = state.backfilled
        condition.unlock()
        guard copiesTail else { return }
        var log: Int32 = -1
        var copied: Int32 = -1
        guard sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied) == SQLITE_OK, copied >= 0 else { return }
        condition.lock()
        state.backfilled = copied
        state.statistics.inlineCheckpoints += 1
        state.statistics.largestInlineCopy = max(state.statistics.largestInlineCopy, copied - min(before, copied))
        condition.unlock()
    }

    private func runPasses() {
        condition.lock()
        while true {
            while !state.wanted && !state.closed { condition.wait() }
            if state.closed { break }
            state.wanted = false
            state.running = true
            let before = state.backfilled
            condition.unlock()
            var log: Int32 = -1
            var copied: Int32 = -1
            let code = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
            condition.lock()
            state.running = false
            state.statistics.backgroundPasses += 1
            let progressed = code == SQLITE_OK && copied > before
            if code == SQLITE_OK && copied >= 0 { state.backfilled = copied }
            if progressed { state.passesOverThisLog += 1 }
            condition.broadcast()
            if !progressed {
                // A reader's snapshot (a backup's copy) holds the log: try again later, not after every commit.
                let resume = Date(timeIntervalSinceNow: Self.pauseWhenStuck)
                while !state.closed && Date() < resume { _ = condition.wait(until: resume) }
            }
        }
        condition.unlock()
    }
}
