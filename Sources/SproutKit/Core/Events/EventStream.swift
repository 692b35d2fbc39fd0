import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live updates of some lists: `GET /api/events` read as `LiveEvent`s, for as long as the consuming task
/// iterates (`docs/events.md`).
///
/// ```swift
/// for try await event in session.events([.community, .todos]) { … }
/// ```
///
/// The stream reconnects by itself when the connection drops or the server is unavailable (a network error, 429,
/// 5xx, the server closing the stream): it sends the last event's `id` as `Last-Event-ID`, so the server replays
/// what was missed, and waits as `EventStreamBackoff` says between attempts. It ends by throwing `APIError` when
/// reconnecting cannot help: 400 (a topic the server does not know), 401 (the token was rejected: the client's
/// `onUnauthorized` is told, as for any request), 403, 404 (a board that does not exist). Cancelling the consuming
/// task closes the connection. Each iteration is a connection of its own.
public struct EventStream: AsyncSequence, Sendable {
    /// The events.
    public typealias Element = LiveEvent
    /// An iterator over a connection of its own.
    public typealias AsyncIterator = AsyncThrowingStream<LiveEvent, any Error>.Iterator

    /// The topics followed, in the order sent.
    public let topics: [LiveTopic]
    /// The `Last-Event-ID` the first connection sends (a cursor kept from an earlier stream); nil to start now.
    public let lastEventID: String?
    let client: APIClient
    let transport: any EventStreamTransport
    let backoff: EventStreamBackoff
    let sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - client: the server and the token (`Session.apiClient`); its `onUnauthorized` hears of a 401.
    ///   - topics: what to follow; at most 8.
    ///   - lastEventID: the last `id` an earlier stream of the same topics delivered, to resume from it.
    ///   - transport: how the connection is made; a scripted one in tests.
    ///   - backoff: the waits between reconnection attempts.
    ///   - sleep: how a wait is waited; tests pass one that records and returns.
    public init(
        client: APIClient, topics: [LiveTopic], lastEventID: String? = nil,
        transport: any EventStreamTransport = URLSessionEventStreamTransport(), backoff: EventStreamBackoff = EventStreamBackoff(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.client = client
        self.topics = topics
        self.lastEventID = lastEventID
        self.transport = transport
        self.backoff = backoff
        self.sleep = sleep
    }

    /// Connects, and keeps connected while the iterator is used.
    public func makeAsyncIterator() -> AsyncIterator {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: LiveEvent.self, throwing: (any Error).self)
        let connection = EventStreamConnector(stream: self, output: continuation)
        let task = Task { await connection.run() }
        continuation.onTermination = { _ in task.cancel() }
        return events.makeAsyncIterator()
    }
}
