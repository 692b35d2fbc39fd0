import HTTPTypes
import Hummingbird
import Logging

/// Logs one line per request with its request id, and returns that id in `X-Request-ID`. An id sent by a
/// proxy in `X-Request-ID` is kept, so one request can be followed across systems.
struct RequestLoggingMiddleware<Context: ClientOriginRequestContext>: RouterMiddleware {
    static var requestIDHeader: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let incoming = request.headers[Self.requestIDHeader], Self.isAcceptable(incoming) {
            context.logger[metadataKey: "hb.request.id"] = .string(incoming)
        }
        let requestID = context.id
        let started = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Errors are rendered further in; one that still arrives here is logged with the status it will get.
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            log(request, status: status, since: started, context: context)
            throw error
        }
        response.headers[Self.requestIDHeader] = requestID
        log(request, status: response.status, since: started, context: context)
        return response
    }

    /// One line per request with the client's address (a trusted proxy's client, not the proxy).
    private func log(_ request: Request, status: HTTPResponse.Status, since started: ContinuousClock.Instant, context: Context) {
        let elapsed = started.duration(to: .now)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        context.logger.info(
            "\(request.method) \(SecretRedaction.loggedPath(of: request)) \(status.code)",
            metadata: ["duration_ms": .string(String(format: "%.2f", milliseconds)), "client": .string(context.client.address)]
        )
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
