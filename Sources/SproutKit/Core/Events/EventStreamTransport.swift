import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Opens a streaming request: answers once the response head has arrived, with the body still coming. The
/// `URLSession` one is what apps use; tests put a scripted one in its place for reconnects and failures.
public protocol EventStreamTransport: Sendable {
    /// Sends `request` and answers its status and headers, and the body as it arrives. Ending the iteration of
    /// `body` (or cancelling the calling task before the head arrives) cancels the request.
    func open(_ request: URLRequest) async throws -> EventStreamConnection
}

/// An answer whose body is still arriving.
public struct EventStreamConnection: Sendable {
    /// The status and headers.
    public var response: HTTPURLResponse
    /// The body in chunks as they arrive, cut anywhere; it ends when the server closes the stream, and throws
    /// when the connection fails.
    public var body: AsyncThrowingStream<Data, any Error>

    /// An answer of `response` whose body is `body`.
    public init(response: HTTPURLResponse, body: AsyncThrowingStream<Data, any Error>) {
        self.response = response
        self.body = body
    }
}
