import Hummingbird
import HTTPTypes
import Logging
import NIOCore
import NIOPosix
import Testing
@testable import SproutServer

/// On PostgreSQL a request's handler runs on the event loop that read it, so its statements go to that loop's pool
/// and their rows come back on the same thread (`LoopBoundResponder`).
struct LoopBoundResponderTests {
    @Test func aTaskPreferringALoopsExecutorRunsOnThatLoopAfterEverySuspension() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let executors = EventLoopTaskExecutors(group)
        for loop in group.makeIterator() {
            let onLoop = try await withTaskExecutorPreference(executors.executor(for: loop)) {
                var seen: [Bool] = []
                for _ in 0..<3 {
                    await Task.yield()
                    seen.append(loop.inEventLoop)
                    try await Task.sleep(for: .milliseconds(1))
                    seen.append(loop.inEventLoop)
                }
                return seen
            }
            #expect(onLoop == Array(repeating: true, count: 6))
        }
        try await group.shutdownGracefully()
    }

    @Test func aHandlerRunsOnTheLoopThatReadItsRequest() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let bound = try await handlerThreads(LoopBoundResponder(inner: Self.reportingLoop, executors: EventLoopTaskExecutors(group)), group)
        #expect(bound == [.ok, .ok])
        // Without the executors (SQLite), the handler runs on Swift's pool: what the first expectation rules out.
        let unbound = try await handlerThreads(LoopBoundResponder(inner: Self.reportingLoop, executors: .none), group)
        #expect(unbound == [.conflict, .conflict])
        try await group.shutdownGracefully()
    }

    @Test func aLoopOfAnotherGroupGetsNoExecutor() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let other = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        #expect(EventLoopTaskExecutors(group).executor(for: other.next()) == nil)
        #expect(EventLoopTaskExecutors(group).executor(for: group.next()) != nil)
        try await group.shutdownGracefully()
        try await other.shutdownGracefully()
    }

    /// 200 when the handler, after a suspension, is on the loop of the request's channel; 409 when it is not.
    private static let reportingLoop = CallbackResponder<SproutRequestContext> { _, context in
        await Task.yield()
        return Response(status: context.channel.eventLoop.inEventLoop ? .ok : .conflict)
    }

    /// The status of one request on a channel of each of `group`'s loops.
    private func handlerThreads(_ responder: some HTTPResponder<SproutRequestContext>, _ group: MultiThreadedEventLoopGroup) async throws -> [HTTPResponse.Status] {
        var statuses: [HTTPResponse.Status] = []
        for loop in group.makeIterator() {
            let channel = try await ServerBootstrap(group: loop).bind(host: "127.0.0.1", port: 0).get()
            let context = SproutRequestContext(source: ApplicationRequestContextSource(channel: channel, logger: Logger(label: "test")))
            let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/"), body: RequestBody(buffer: ByteBuffer()))
            statuses.append(try await responder.respond(to: request, context: context).status)
            try await channel.close()
        }
        return statuses
    }
}
