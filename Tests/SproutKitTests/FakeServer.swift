import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit

/// An in-memory server behind the kit's transport seam, which each service's fake configures: routes (method and
/// path pattern → handler), every request recorded, failures injected ahead of the routes, and answers held until
/// released — for store behaviour a live server cannot show on cue.
///
/// Handlers run with the server's lock held, so a service fake keeps its state beside the server and guards it
/// with the same lock (`withLock`) when tests seed or inspect it.
final class FakeServer: HTTPTransport, @unchecked Sendable {
    /// What a handler answers.
    struct Answer {
        var status: Int
        var body: Data
        var headers: [String: String]? = nil
    }

    /// What a request meets instead of its route.
    enum Failure {
        /// No failure: the request is answered as usual (it still uses up its place in the queue).
        case pass
        /// No answer, and the server never acts on the request.
        case offline
        /// The server acts on the request, then the answer is lost.
        case answerLost
        /// This answer instead.
        case answer(Answer)
    }

    /// Answers one request; called with the lock held.
    typealias Handler = (FakeRequest) -> Answer

    private struct Route {
        let method: String?
        let segments: [String]
        let handler: Handler
    }

    private struct InjectedFailure {
        let method: String?
        let pathPrefix: String?
        let failure: Failure

        func matches(method: String, path: String) -> Bool {
            (self.method == nil || self.method == method) && (pathPrefix.map(path.hasPrefix) ?? true)
        }
    }

    /// The address the fakes' clients use; nothing listens there.
    static let base = URL(string: "http://127.0.0.1:9")!

    // Every property below is guarded by `lock`.
    private let lock = NSLock()
    private var routes: [Route] = []
    private var sent: [URLRequest] = []
    private var failures: [InjectedFailure] = []
    private let gate = AnswerGate()
    private let notFound: Handler

    /// A server that answers every request no route takes with `notFound` (an empty 404 unless given).
    init(notFound: @escaping Handler = { _ in Answer(status: 404, body: Data()) }) {
        self.notFound = notFound
    }

    // MARK: Configuration

    /// Answers requests with `method` (any method when nil) whose path matches `pattern` with `handler`. A pattern
    /// segment `:name` matches any one segment and is passed as `request.parameters["name"]`; a last segment `*`
    /// matches whatever follows, nothing included. The first route registered that matches wins.
    func route(_ method: String?, _ pattern: String, _ handler: @escaping Handler) {
        let segments = pattern.split(separator: "/").map(String.init)
        lock.withLock { routes.append(Route(method: method, segments: segments, handler: handler)) }
    }

    /// The next request with `method` (any when nil) whose path starts with `pathPrefix` (any when nil) meets
    /// `failure`; injected failures are met in the order given.
    func failNext(_ failure: Failure, method: String? = nil, pathPrefix: String? = nil) {
        lock.withLock { failures.append(InjectedFailure(method: method, pathPrefix: pathPrefix, failure: failure)) }
    }

    /// Runs `body` with the lock held, for a fake's state.
    func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
        try lock.withLock(body)
    }

    /// Answers are computed (the server acts) but not returned until `release()`.
    func hold() { gate.hold() }

    /// Lets held answers go, and the ones after them.
    func release() { gate.release() }

    // MARK: Inspection

    /// Every request, in order.
    var requests: [URLRequest] { lock.withLock { sent } }

    /// `METHOD path` of every request, in order.
    var requestLines: [String] { requests.map { "\($0.httpMethod ?? "GET") \($0.url!.path)" } }

    /// The requests with `method`.
    func requests(_ method: String) -> [URLRequest] { requests.filter { $0.httpMethod == method } }

    /// Waits (briefly) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws {
        try await eventually { self.lock.withLock { self.sent.count >= count } }
    }

    // MARK: HTTPTransport

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (failure, answer) = lock.withLock { () -> (Failure?, Answer?) in
            sent.append(request)
            let method = request.httpMethod ?? "GET"
            let path = request.url?.path ?? ""
            let failure = failures.firstIndex { $0.matches(method: method, path: path) }.map { failures.remove(at: $0).failure }
            switch failure {
            case .offline?: return (failure, nil)
            case .answer(let answer)?: return (failure, answer)
            case .pass?, .answerLost?, nil: return (failure, dispatch(request))
            }
        }
        switch failure {
        case .offline?, .answerLost?: throw URLError(.networkConnectionLost)
        default: break
        }
        await gate.passThrough()
        let answered = answer ?? Answer(status: 500, body: Data())
        return (answered.body, HTTPURLResponse(url: request.url!, statusCode: answered.status, httpVersion: "HTTP/1.1", headerFields: answered.headers)!)
    }

    /// The answer of the first route that matches (called with the lock held).
    private func dispatch(_ request: URLRequest) -> Answer {
        let method = request.httpMethod ?? "GET"
        let segments = (request.url?.path ?? "").split(separator: "/").map(String.init)
        for route in routes where route.method == nil || route.method == method {
            if let parameters = Self.match(route.segments, segments) {
                return route.handler(FakeRequest(request: request, parameters: parameters))
            }
        }
        return notFound(FakeRequest(request: request, parameters: [:]))
    }

    private static func match(_ pattern: [String], _ segments: [String]) -> [String: String]? {
        if pattern.last == "*" {
            guard segments.count >= pattern.count - 1 else { return nil }
            return match(Array(pattern.dropLast()), Array(segments.prefix(pattern.count - 1)))
        }
        guard pattern.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, actual) in zip(pattern, segments) {
            if expected.hasPrefix(":") {
                parameters[String(expected.dropFirst())] = actual
            } else if expected != actual {
                return nil
            }
        }
        return parameters
    }
}

/// A request as a `FakeServer` handler sees it.
struct FakeRequest {
    /// The request as sent.
    let request: URLRequest
    /// The values of the route pattern's `:name` segments.
    let parameters: [String: String]

    /// The method, `GET` when unset.
    var method: String { request.httpMethod ?? "GET" }
    /// The body, empty when none.
    var body: Data { request.httpBody ?? Data() }
    /// A header's value.
    func header(_ name: String) -> String? { request.value(forHTTPHeaderField: name) }
    /// The query items with a value (the last of a repeated name wins).
    var query: [String: String] {
        let items = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.compactMap { item in item.value.map { (item.name, $0) } }, uniquingKeysWith: { $1 })
    }
    /// The body decoded as `type`, or nil.
    func decode<Value: Decodable>(_ type: Value.Type) -> Value? {
        try? JSONDecoder().decode(type, from: body)
    }
}

extension FakeServer.Answer {
    /// `value` as JSON with `status`.
    static func json<Value: Encodable>(_ value: Value, status: Int = 200) -> Self {
        Self(status: status, body: (try? JSONEncoder().encode(value)) ?? Data())
    }
}
