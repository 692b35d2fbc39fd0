import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import Testing

/// `URLSessionEventStreamTransport` over real connections (FoundationNetworking on Linux): a body read as it
/// arrives, and a live Sprout server's answers.
@Suite struct EventStreamLiveTests {
    @Test func theURLSessionTransportReadsALiveServersStatusAndBody() async throws {
        try await withLiveServer { base in
            let transport = URLSessionEventStreamTransport()
            let connection = try await transport.open(URLRequest(url: base.appendingPathComponent("api/v2/todos")))
            var body = Data()
            for try await chunk in connection.body { body.append(chunk) }
            #expect(connection.response.statusCode == 200)
            #expect((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["data"] != nil)
        }
    }

    @Test func framesArriveWhileTheConnectionStaysOpen() async throws {
        let server = try TrickleServer()
        defer { server.stop() }
        let stream = EventStream(client: APIClient(baseURL: server.base), topics: [.community], transport: URLSessionEventStreamTransport())
        var iterator = stream.makeAsyncIterator()
        // The first frame is read before the server has sent the second: the body is not buffered to its end.
        let first = try await iterator.next()
        #expect(first == .ready(cursors: ["community": 1]))
        #expect(server.request?.contains("GET /api/events?topics=community HTTP/1.1") == true)
        server.sendSecond()
        let second = try await iterator.next()
        #expect(second == .reset(topic: "community"))
    }
}
