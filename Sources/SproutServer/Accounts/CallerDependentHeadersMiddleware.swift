import HTTPTypes
import Hummingbird

/// For answers that depend on who asks (by token or by cookie): no shared cache may keep them, and a private
/// one must not hand one account's answer to another.
struct CallerDependentHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            // Hummingbird's own errors are rendered by ErrorRenderingMiddleware in Sprout's shape.
            throw error
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.cacheControl] = "private, no-store"
        response.headers[.vary] = "Authorization, Cookie"
        return response
    }
}
