import HTTPTypes
import Hummingbird
import Logging

/// Turns every error into a response: errors that know their own shape render themselves, Hummingbird's
/// `HTTPError`s (unknown routes, bad methods) become `{"message"}`, and anything unexpected is logged with the
/// request id and answered with a bare 500, never with internals. A full disk or a database that is away is no
/// bug: 503 with `Retry-After` and a message that says which (`UnavailableStorage`). A client that hangs up mid-request is no
/// server error: it is logged at info and counted as 499.
///
/// With `pages`, a browser asking for a web page (GET or HEAD of an address that is not an API's, see
/// `WebPageRenderer.isAPIPath`) gets the site's HTML error page with the same status instead of `{"message"}`:
/// an unknown page, a malformed id in a page's path, a page that failed to render. APIs keep their contract bodies.
struct ErrorRenderingMiddleware<Context: RequestContext>: RouterMiddleware {
    var pages: WebPageRenderer? = nil

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            if let page = await htmlPage(error.status, for: request) { return page }
            let message = error.body ?? error.status.reasonPhrase
            return try Response.json(MessageBody(message: message), status: error.status)
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context)
        } catch let error as ClientWentAway {
            context.logger.info("client went away before its request arrived", metadata: ["reason": "\(error.underlying)"])
            // Never delivered; it gives the access log nginx's code for a request the client abandoned.
            return Response(status: .clientClosedRequest)
        } catch {
            if let unavailable = UnavailableStorage(error) {
                context.logger.warning("storage unavailable", metadata: ["error": "\(String(reflecting: error))"])
                var response = try await htmlPage(.serviceUnavailable, for: request)
                    ?? Response.json(MessageBody(message: unavailable.message), status: .serviceUnavailable)
                response.headers[.retryAfter] = String(unavailable.retryAfter)
                return response
            }
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: error))"])
            if let page = await htmlPage(.internalServerError, for: request) { return page }
            return try Response.json(MessageBody(message: "Server Error"), status: .internalServerError)
        }
    }

    private func htmlPage(_ status: HTTPResponse.Status, for request: Request) async -> Response? {
        guard let pages, request.method == .get || request.method == .head, !WebPageRenderer.isAPIPath(request.uri.path)
        else { return nil }
        return await pages.errorPage(status: status, request: request)
    }
}

extension HTTPResponse.Status {
    /// nginx's "client closed request": the client went away before an answer could be given.
    static let clientClosedRequest = HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
}
