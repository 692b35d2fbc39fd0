import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one prepared `URLRequest` and returns the raw answer. `URLSession` is the transport in apps; tests can
/// put a stub in its place for failures a live server cannot produce.
public protocol HTTPTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The transport that apps use: a `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession

    /// A transport over a session of its own whose redirects follow `RedirectPolicy`: the Bearer token never
    /// travels to another origin, and https is never downgraded to http.
    public init(configuration: URLSessionConfiguration = .default) {
        self.session = URLSession(configuration: configuration, delegate: RedirectPolicy(), delegateQueue: nil)
    }

    /// A transport over `session`. Its delegate, not Sproutkit, decides how redirects are followed: give it a
    /// `RedirectPolicy` (or a delegate that does the same) when requests carry a token.
    public init(session: URLSession) {
        self.session = session
    }

    /// Sends `request`; fails with `URLError` when no HTTP answer arrives.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }
}

/// How SproutKit's sessions follow redirects. A redirect to another origin (scheme, host or port) loses the
/// `Authorization`, `Cookie` and market `identifier` headers — `URLSession` on Linux would otherwise send the
/// Bearer token to whatever host a server or a network in between names — and a redirect from https to plain
/// http is not followed at all (the 3xx answer is returned as it is). A market request that carries the vendor's
/// `identifier` (and, in its body, the vendor secret) follows no redirect at all: a 307 would send the secret on.
public final class RedirectPolicy: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    /// A policy; it keeps no state, so one can serve any number of sessions.
    override public init() {}

    /// URLSession's redirect hook: answers with `redirect(_:from:)`.
    public func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(Self.redirect(request, from: task.currentRequest ?? task.originalRequest))
    }

    /// The request to follow a redirect with, or nil to stop and return the redirect answer itself.
    /// - Parameters:
    ///   - request: the request URLSession means to send next.
    ///   - previous: the request that got the redirect.
    public static func redirect(_ request: URLRequest, from previous: URLRequest?) -> URLRequest? {
        guard let target = request.url else { return nil }
        if previous?.value(forHTTPHeaderField: "identifier") != nil || request.value(forHTTPHeaderField: "identifier") != nil { return nil }
        // Without the previous request its origin is unknown: follow, but without credentials.
        guard let source = previous?.url else { return withoutCredentials(request) }
        if source.scheme?.lowercased() == "https" && target.scheme?.lowercased() != "https" { return nil }
        return sameOrigin(source, target) ? request : withoutCredentials(request)
    }

    private static func withoutCredentials(_ request: URLRequest) -> URLRequest {
        var stripped = request
        stripped.setValue(nil, forHTTPHeaderField: "Authorization")
        stripped.setValue(nil, forHTTPHeaderField: "Cookie")
        stripped.setValue(nil, forHTTPHeaderField: "identifier")
        return stripped
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased() && port(of: a) == port(of: b)
    }

    private static func port(of url: URL) -> Int? {
        url.port ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
