import HTTPTypes
import Hummingbird
import Logging

/// Writes one access line per request and counts it (`RequestMetrics`): request id, route template, status,
/// duration, account and client. The id is returned in `X-Request-ID`; one sent in that header by a trusted proxy
/// is kept, so one request can be followed across systems (from anyone else it is replaced: a client could
/// otherwise write whatever it liked into the log's ids).
struct RequestLoggingMiddleware<Context: RecordedRequestContext>: RouterMiddleware {
    let metrics: RequestMetrics

    static var requestIDHeader: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if context.client.viaTrustedProxy, let incoming = request.headers[Self.requestIDHeader], Self.isAcceptable(incoming) {
            context.logger[metadataKey: "hb.request.id"] = .string(incoming)
        }
        let requestID = context.id
        let started = ContinuousClock.now
        if metrics.isOn { metrics.inFlight.increment() }
        defer { if metrics.isOn { metrics.inFlight.decrement() } }
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Errors are rendered further in; one that still arrives here is logged with the status it will get.
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            finish(request, status: status, since: started, context: context)
            throw error
        }
        response.headers[Self.requestIDHeader] = requestID
        finish(request, status: response.status, since: started, context: context)
        return response
    }

    /// The access line, with the client's address (a trusted proxy's client, not the proxy), and the count.
    private func finish(_ request: Request, status: HTTPResponse.Status, since started: ContinuousClock.Instant, context: Context) {
        let elapsed = started.duration(to: .now)
        let route = context.endpointPath
        if metrics.isOn { metrics.record(route: route, method: request.method, status: status, duration: elapsed) }
        guard context.logger.logLevel <= .info else { return }
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "route": .string(route ?? RequestMetrics.unmatchedRoute),
            "status": .stringConvertible(status.code),
            "duration_ms": .string(String(format: "%.2f", milliseconds)),
            "client": .string(context.client.address),
        ]
        if let account = context.record.accountID { metadata["account"] = .stringConvertible(account) }
        context.logger.info("\(request.method) \(SecretRedaction.loggedPath(of: request)) \(status.code)", metadata: metadata)
    }

    private static func isAcceptable(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: ".")
            }
    }
}
