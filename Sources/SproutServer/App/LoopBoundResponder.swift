import Hummingbird
import NIOCore
import NIOPosix

/// Runs each request's handler on the event loop that read it, instead of Swift's global pool: on PostgreSQL, the
/// handler's statements then go to that loop's pool (`PostgresLoopPools.current`) and their rows come back on the
/// same thread.
///
/// In the release binary (`--static-swift-stdlib`) NIO cannot make its loops run every task (`Entrypoint`), and a
/// todo show on PostgreSQL crossed threads about six times (docs/benchmarks.md, "PostgreSQL: where a request's CPU
/// goes"). Measured (release builds alternating, todo show, wrk -c16): 5,640 / 6,071 req/s before, 9,304 / 9,782
/// with this (docs/benchmarks.md, "each request's handler on its own loop"). On SQLite the same made show and create 12–21 % slower (its reads and writes are
/// synchronous and already on threads of their own), so there the executors are `.none` and nothing changes.
///
/// Per request, not per connection: binding a connection's whole task to its loop doubled the show rate, but cost
/// each idle event stream about 0.7 KiB more resident memory, against a target it meets by less than that.
/// Inside `ShallowStreamResponder`, so an event stream's connection task does not hold this frame while it streams.
/// Work that blocks or takes long runs on pools of its own (`WorkPools`), so no loop is held by it.
struct LoopBoundResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: ConnectionRequestContext {
    typealias Context = Inner.Context

    let inner: Inner
    let executors: EventLoopTaskExecutors

    @Sendable func respond(to request: Request, context: Context) async throws -> Response {
        try await withTaskExecutorPreference(executors.executor(for: context.channel.eventLoop)) {
            try await inner.respond(to: request, context: context)
        }
    }
}

/// One task executor per event loop of a group, made once; a request looks its loop's up.
struct EventLoopTaskExecutors: Sendable {
    private let executors: [(loop: any EventLoop, executor: EventLoopTaskExecutor)]

    /// An executor for each loop of `group`.
    init(_ group: any EventLoopGroup) {
        executors = group.makeIterator().map { ($0, EventLoopTaskExecutor($0)) }
    }

    private init() {
        executors = []
    }

    /// No executors: every task runs where it would have.
    static let none = EventLoopTaskExecutors()

    /// The loop's executor; nil for a loop it does not have, whose tasks then run where they would have.
    func executor(for loop: any EventLoop) -> EventLoopTaskExecutor? {
        executors.first { $0.loop === loop }?.executor
    }
}

/// A task executor that runs its jobs on one event loop.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // As this task executor's job, not as the loop's serial executor's (`EventLoop.enqueue`): a task running
        // on a serial executor would hop to its preferred executor at its next nonisolated call.
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
