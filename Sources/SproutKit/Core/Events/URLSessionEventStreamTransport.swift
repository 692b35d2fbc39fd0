import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams a response body through a `URLSessionDataDelegate`, one session per connection. The delegate, not
/// `URLSession.bytes(for:)`, because FoundationNetworking on Linux has no `bytes(for:)`: this way one code path
/// serves every platform. Redirects follow `RedirectPolicy`, as the other requests' do.
public struct URLSessionEventStreamTransport: EventStreamTransport {
    /// The configuration each connection's session is made from.
    public let configuration: URLSessionConfiguration

    /// A transport whose sessions use `configuration`. Its request timeout is the longest silence tolerated
    /// between chunks; the server sends a heartbeat every 15 seconds, so the default 60 seconds is ample.
    public init(configuration: URLSessionConfiguration = .default) {
        self.configuration = configuration
    }

    /// Opens `request`; see `EventStreamTransport.open`.
    public func open(_ request: URLRequest) async throws -> EventStreamConnection {
        try Task.checkCancellation()
        let delegate = StreamingDataDelegate()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(task, session: session, answer: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// Hands a data task's head to the waiting `open` and its body chunks to the connection's stream.
private final class StreamingDataDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Every access to the two continuations holds `lock`: URLSession calls from its own queue.
    private let lock = NSLock()
    private var answer: CheckedContinuation<EventStreamConnection, any Error>?
    private var body: AsyncThrowingStream<Data, any Error>.Continuation?

    func start(_ task: URLSessionDataTask, session: URLSession, answer: CheckedContinuation<EventStreamConnection, any Error>) {
        lock.withLock { self.answer = answer }
        task.resume()
        // The session holds its delegate until invalidated: let it go once the task ends.
        session.finishTasksAndInvalidate()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        continuation.onTermination = { _ in dataTask.cancel() }
        let waiting = lock.withLock {
            body = continuation
            defer { answer = nil }
            return answer
        }
        completionHandler(.allow)
        waiting?.resume(returning: EventStreamConnection(response: http, body: stream))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        _ = lock.withLock { body }?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (waiting, stream) = lock.withLock {
            defer {
                answer = nil
                body = nil
            }
            return (answer, body)
        }
        waiting?.resume(throwing: error ?? URLError(.badServerResponse))
        if let error {
            stream?.finish(throwing: error)
        } else {
            stream?.finish()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(RedirectPolicy.redirect(request, from: task.currentRequest ?? task.originalRequest))
    }
}
