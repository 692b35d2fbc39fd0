import HTTPTypes
import Hummingbird
import NIOCore
import Testing
@testable import SproutServer

/// A stream's request is answered in a task of its own, so the frames of the middlewares and the controller are
/// not kept by the connection's task for the stream's whole life (docs/events.md, memory per idle stream).
@Suite struct ShallowStreamResponderTests {
    /// The hash of the task the inner responder ran in, in the response's only header.
    static let innerTask = HTTPField.Name("X-Inner-Task")!

    static func taskAnswering(_ path: String) async throws -> (caller: Int?, inner: String?) {
        let inner = CallbackResponder<String> { _, _ in
            let task = withUnsafeCurrentTask { $0?.hashValue }
            return Response(status: .ok, headers: [innerTask: task.map(String.init) ?? "none"])
        }
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path),
            body: RequestBody(buffer: ByteBuffer())
        )
        let response = try await ShallowStreamResponder(inner: inner).respond(to: request, context: "context")
        return (withUnsafeCurrentTask { $0?.hashValue }, response.headers[innerTask])
    }

    @Test func theEventStreamsRequestIsAnsweredInAChildTask() async throws {
        let (caller, inner) = try await Self.taskAnswering("/api/events?topics=market")
        #expect(caller != nil && inner != nil && inner != "none")
        #expect(inner != caller.map(String.init))
    }

    @Test func everyOtherRequestIsAnsweredInTheCallersTask() async throws {
        for path in ["/api/v2/todos", "/api/events/more", "/"] {
            let (caller, inner) = try await Self.taskAnswering(path)
            #expect(caller != nil && inner == caller.map(String.init), "\(path)")
        }
    }
}
