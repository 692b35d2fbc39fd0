import HTTPTypes
import Hummingbird

/// Who is at the other end of a request: the client's IP address (the login limiter's and the log's) and whether
/// it reached Sprout over HTTPS. Behind a trusted reverse proxy these come from `X-Forwarded-For` and
/// `X-Forwarded-Proto` (`TrustedProxies`); otherwise from the connection.
public struct ClientOrigin: Sendable, Equatable {
    /// The client's IP address as text, or "unknown" (in-process test requests have no peer).
    public var address: String
    /// The client's own connection was HTTPS, as a trusted proxy says.
    public var isHTTPS: Bool
    /// The connection came from a trusted proxy, so what it adds to a request (an `X-Request-ID`) is believed.
    public var viaTrustedProxy = false

    public init(address: String, isHTTPS: Bool, viaTrustedProxy: Bool = false) {
        self.address = address
        self.isHTTPS = isHTTPS
        self.viaTrustedProxy = viaTrustedProxy
    }
}

/// A request context that carries the resolved `ClientOrigin`.
public protocol ClientOriginRequestContext: RequestContext {
    var client: ClientOrigin { get set }
}

/// Resolves the client once per request, before anything logs or counts it.
struct ClientOriginMiddleware<Context: ClientOriginRequestContext>: RouterMiddleware {
    let trustedProxies: TrustedProxies

    static var forwardedFor: HTTPField.Name { HTTPField.Name("X-Forwarded-For")! }
    static var forwardedProto: HTTPField.Name { HTTPField.Name("X-Forwarded-Proto")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !trustedProxies.isEmpty else { return try await next(request, context) }
        var context = context
        context.client = trustedProxies.client(
            peer: context.client.address,
            forwardedFor: request.headers[values: Self.forwardedFor],
            forwardedProto: request.headers[values: Self.forwardedProto]
        )
        return try await next(request, context)
    }
}
