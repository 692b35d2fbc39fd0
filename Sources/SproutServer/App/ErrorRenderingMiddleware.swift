import HTTPTypes
import Hummingbird
import Logging

/// Turns every error into a JSON response: errors that know their own shape render themselves, Hummingbird's
/// `HTTPError`s (unknown routes, bad methods) become `{"message"}`, and anything unexpected is logged with the
/// request id and answered with a bare 500, never with internals. A client that hangs up mid-request is no
/// server error: it is logged at info and counted as 499.
struct ErrorRenderingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            let message = error.body ?? error.status.reasonPhrase
            return try Response.json(MessageBody(message: message), status: error.status)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch let error as ClientWentAway {
            context.logger.info("client went away before its request arrived", metadata: ["reason": "\(error.underlying)"])
            // Never delivered; it gives the access log nginx's code for a request the client abandoned.
            return Response(status: .clientClosedRequest)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            return try Response.json(MessageBody(message: "Server Error"), status: .internalServerError)
        }
    }
}

extension HTTPResponse.Status {
    /// nginx's "client closed request": the client went away before an answer could be given.
    static let clientClosedRequest = HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
}
