import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit

/// An `EventStreamTransport` that answers each connection from a script, and records the requests.
final class ScriptedEventTransport: EventStreamTransport, @unchecked Sendable {
    /// One connection's answer.
    enum Answer {
        /// No answer: a network error.
        case fail
        /// `status` with these body chunks, then the server closes the stream.
        case close(status: Int, chunks: [String])
        /// 200 with these chunks, then the connection stays open until the client lets go.
        case stayOpen(chunks: [String])
    }

    // Every access to `script` and `sent` holds `lock`.
    private let lock = NSLock()
    private var script: [Answer]
    private var sent: [URLRequest] = []

    /// A transport that answers connections with `script` in order, then stays open with nothing to say.
    init(_ script: [Answer]) {
        self.script = script
    }

    var requests: [URLRequest] { lock.withLock { sent } }

    func open(_ request: URLRequest) async throws -> EventStreamConnection {
        let answer = lock.withLock {
            sent.append(request)
            return script.isEmpty ? .stayOpen(chunks: []) : script.removeFirst()
        }
        let (body, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        let status: Int
        switch answer {
        case .fail:
            throw URLError(.networkConnectionLost)
        case .close(let code, let chunks):
            status = code
            chunks.forEach { continuation.yield(Data($0.utf8)) }
            continuation.finish()
        case .stayOpen(let chunks):
            status = 200
            chunks.forEach { continuation.yield(Data($0.utf8)) }
        }
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/event-stream"])!
        return EventStreamConnection(response: response, body: body)
    }
}

/// Records the waits a stream asks for, and returns at once.
final class RecordingSleeper: @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [Duration] = []

    var delays: [Duration] { lock.withLock { waits } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] delay in
            lock.withLock { waits.append(delay) }
            try Task.checkCancellation()
        }
    }
}
