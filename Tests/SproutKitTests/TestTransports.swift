import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit

/// Passes requests to the live server through URLSession, recording them, and can hold the answers until
/// released — so a test can look at a store while its request is in flight, and decide in which order the
/// server's answers arrive after the server has acted on them.
final class GatedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private let gate = AnswerGate()
    private var sent: [URLRequest] = []
    private var answered = 0
    private let inner = URLSessionTransport()

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { sent.append(request) }
        let answer = try await inner.send(request)
        lock.withLock { answered += 1 }
        await gate.passThrough()
        return answer
    }

    func hold() { gate.hold() }

    func release() { gate.release() }

    var requests: [URLRequest] { lock.withLock { sent } }

    /// Waits (briefly) until `count` requests have been sent.
    func waitForRequests(_ count: Int) async throws {
        try await eventually { self.lock.withLock { self.sent.count >= count } }
    }

    /// Waits (briefly) until the server has answered `count` requests (answers may still be held).
    func waitForAnswers(_ count: Int) async throws {
        try await eventually { self.lock.withLock { self.answered >= count } }
    }

    var answerCount: Int { lock.withLock { answered } }
}

/// Holds answers back while held: a transport calls `passThrough()` after the server has acted on a request, so
/// a test decides when (and in which order) the answers arrive.
final class AnswerGate: @unchecked Sendable {
    // Every access to `held` and `waiting` holds `lock`.
    private let lock = NSLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Answers wait from now on.
    func hold() { lock.withLock { held = true } }

    /// Lets every waiting answer go, and the ones after them.
    func release() {
        let continuations = lock.withLock {
            held = false
            defer { waiting = [] }
            return waiting
        }
        continuations.forEach { $0.resume() }
    }

    /// Returns at once unless held; then when released.
    func passThrough() async {
        guard lock.withLock({ held }) else { return }
        await withCheckedContinuation { continuation in
            let stillHeld = lock.withLock {
                if held { waiting.append(continuation) }
                return held
            }
            if !stillHeld { continuation.resume() }
        }
    }
}

/// Waits (up to five seconds) until `condition` holds.
func eventually(_ condition: () -> Bool) async throws {
    for _ in 0..<500 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw StubError.timedOut
}

/// Answers every request itself: for failures a live server cannot produce.
struct StubTransport: HTTPTransport {
    let respond: @Sendable (URLRequest) async throws -> (Data, HTTPURLResponse)

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await respond(request)
    }

    static func answering(status: Int, body: String, headers: [String: String] = ["Content-Type": "application/json"]) -> StubTransport {
        StubTransport { request in
            (Data(body.utf8), HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!)
        }
    }
}

/// Records the last request it saw, then answers with a fixed body.
final class RecordingStub: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var last: URLRequest?
    let body: String

    init(body: String) { self.body = body }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { last = request }
        return (Data(body.utf8), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)!)
    }

    var lastRequest: URLRequest? { lock.withLock { last } }
}

enum StubError: Error {
    case offline
    case timedOut
}
