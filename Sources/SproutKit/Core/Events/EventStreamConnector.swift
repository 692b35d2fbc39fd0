import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `EventStream` iteration's connections, one after another: connect, read frames, and after a failure wait
/// and connect again from the last id, until a terminal answer or cancellation.
struct EventStreamConnector: Sendable {
    let stream: EventStream
    let output: AsyncThrowingStream<LiveEvent, any Error>.Continuation

    /// How one connection ended, when it did not end the stream.
    private struct Progress {
        var lastEventID: String?
        var retry: Duration?
        var delivered = false
    }

    func run() async {
        var progress = Progress(lastEventID: stream.lastEventID)
        var failures = 0
        while !Task.isCancelled {
            progress.delivered = false
            do {
                try await connect(&progress)
            } catch let error as APIError {
                // Only the answers reconnecting cannot change come here; everything else is retried below.
                output.finish(throwing: error)
                return
            } catch {
                if Task.isCancelled { break }
            }
            // A connection that delivered an event was a success: the next wait starts from the beginning.
            failures = progress.delivered ? 1 : failures + 1
            do {
                try await stream.sleep(stream.backoff.delay(afterFailures: failures, base: progress.retry))
            } catch {
                break
            }
        }
        output.finish()
    }

    /// One connection, read to its end. Throws `APIError` for a terminal answer, anything else to retry.
    private func connect(_ progress: inout Progress) async throws {
        let request = try await makeRequest(lastEventID: progress.lastEventID)
        let connection = try await stream.transport.open(request)
        let status = connection.response.statusCode
        guard status == 200 else {
            let body = try? await Self.collect(connection.body, limit: 64 * 1024)
            if Self.isTerminal(status) {
                throw await refusal(status: status, body: body ?? Data(), request: request)
            }
            throw URLError(.badServerResponse)
        }
        var parser = ServerSentEventParser(lastEventID: progress.lastEventID)
        for try await chunk in connection.body {
            for output in parser.feed(chunk) {
                switch output {
                case .retry(let delay):
                    progress.retry = delay
                case .event(let frame):
                    // The id counts once its frame is whole: a frame cut off by a drop is replayed.
                    progress.lastEventID = frame.lastEventID
                    guard let event = LiveEvent(frame: frame) else { continue }
                    progress.delivered = true
                    self.output.yield(event)
                }
            }
        }
    }

    private func makeRequest(lastEventID: String?) async throws(APIError) -> URLRequest {
        var headers = ["Accept": "text/event-stream", "Cache-Control": "no-store"]
        if let lastEventID { headers["Last-Event-ID"] = lastEventID }
        let topics = stream.topics.map(\.name).joined(separator: ",")
        return try await stream.client.makeURLRequest(Request<Data>(path: "/api/events", query: [("topics", topics)], headers: headers))
    }

    /// 408 and 429 pass with time, as 5xx do; any other 4xx is the same answer on every attempt.
    static func isTerminal(_ status: Int) -> Bool {
        (400..<500).contains(status) && status != 408 && status != 429
    }

    /// The `APIError` a terminal answer ends the stream with; a 401 to a token is reported to the client's owner.
    private func refusal(status: Int, body: Data, request: URLRequest) async -> APIError {
        if status == 401, let onUnauthorized = stream.client.onUnauthorized,
           let header = request.value(forHTTPHeaderField: "Authorization"), header.hasPrefix("Bearer ") {
            await onUnauthorized(String(header.dropFirst("Bearer ".count)))
        }
        let serverError = try? JSONDecoder().decode(ServerErrorBody.self, from: body)
        return .status(code: status, message: serverError?.message, fieldErrors: serverError?.errors ?? [:], body: body)
    }

    private static func collect(_ body: AsyncThrowingStream<Data, any Error>, limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in body where data.count < limit {
            data.append(chunk)
        }
        return data
    }
}
