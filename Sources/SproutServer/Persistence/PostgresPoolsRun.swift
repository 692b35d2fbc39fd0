import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Runs PostgreSQL pools until the calling task is cancelled or the service group shuts down gracefully, then gives
/// them `grace` to end before it returns anyway.
///
/// A pool whose keep-alive query was on its way as its connection closed never ends: postgres-nio never answers a
/// query written to a closed connection (see `PostgresTransaction`), and the pool waits for that answer. Waiting for
/// the pool kept a test waiting for good (`rowsAreReadOnTheirConnectionsEventLoop`: its pool's "ping pong" half a
/// second before the close), as it would keep a command or a server's exit. Such a pool is left behind, with a warning.
enum PostgresPoolsRun {
    static let grace: Duration = .seconds(5)

    static func run(_ clients: [PostgresClient], logger: Logger) async {
        await run(clients.map { client in { await client.run() } }, grace: grace, logger: logger)
    }

    /// Runs `clients` while `body` runs, which starts once every client's `run` has been entered, and stops them
    /// when it returns. A lease before `run` would wait for it, but postgres-nio warns of it, and a command printed
    /// that warning every time (`sprout seed` on PostgreSQL). Each client signals just before calling its `run`, whose
    /// first step marks it running; `body` needs several hops to reach a lease, so it comes after.
    static func whileRunning<Value: Sendable>(
        _ clients: [PostgresClient], logger: Logger, _ body: @Sendable () async throws -> Value
    ) async throws -> Value {
        let (entered, arrival) = AsyncStream.makeStream(of: Void.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await run(clients.map { client in { arrival.yield(); await client.run() } }, grace: grace, logger: logger)
            }
            defer { group.cancelAll() }
            var waiting = clients.count
            var arrivals = entered.makeAsyncIterator()
            while waiting > 0, await arrivals.next() != nil { waiting -= 1 }
            return try await body()
        }
    }

    /// `runs`: loops that end when cancelled or shut down gracefully, or should.
    static func run(_ runs: [@Sendable () async -> Void], grace: Duration, logger: Logger) async {
        // Not a child task: a child that never ends would hold its parent. Task locals, among them the service
        // group's graceful shutdown (which each client's `run` obeys), carry over.
        let pools = Task {
            await withDiscardingTaskGroup { group in
                for run in runs { group.addTask { await run() } }
            }
        }
        let end = PoolsEnd(grace: grace, logger: logger)
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withCheckedContinuation { continuation in
                    end.wait(continuation)
                    Task {
                        await pools.value
                        end.finish()
                    }
                }
            } onGracefulShutdown: {
                end.startGrace()
            }
        } onCancel: {
            pools.cancel()
            end.startGrace()
        }
    }
}

/// The end of `PostgresPoolsRun.run`: when the pools have ended, or `grace` after they were asked to, whichever
/// comes first; each step may come in any order.
private final class PoolsEnd: Sendable {
    private struct State {
        var waiting: CheckedContinuation<Void, Never>?
        var ended = false
        var graceStarted = false
    }

    private let state = Mutex(State())
    private let grace: Duration
    private let logger: Logger

    init(grace: Duration, logger: Logger) {
        self.grace = grace
        self.logger = logger
    }

    func wait(_ continuation: CheckedContinuation<Void, Never>) {
        let endedAlready = state.withLock { state in
            if !state.ended { state.waiting = continuation }
            return state.ended
        }
        if endedAlready { continuation.resume() }
    }

    func finish() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.ended else { return nil }
            state.ended = true
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    func startGrace() {
        let starts = state.withLock { state in
            defer { state.graceStarted = true }
            return !state.graceStarted && !state.ended
        }
        guard starts else { return }
        Task { [grace, logger] in
            try? await Task.sleep(for: grace)
            if !state.withLock({ $0.ended }) {
                logger.warning("a PostgreSQL pool did not stop within \(grace); leaving it behind (a keep-alive query that its closed connection never answered)")
            }
            finish()
        }
    }
}
