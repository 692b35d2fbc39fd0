import HTTPTypes
import Hummingbird

/// Headers every answer carries, whatever produced it (a route, an error, an unknown path): browsers must take
/// `Content-Type` at its word, so a JSON answer that quotes user text can never be sniffed into a page.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
