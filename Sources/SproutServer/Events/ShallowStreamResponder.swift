import Hummingbird

/// Answers a long-lived stream's request (`/api/events`) in a child task, every other request as before.
///
/// Why: a task keeps the allocator slabs its deepest await needed until the task ends, and the connection's task
/// lives as long as the stream. Run in that task, the middlewares, router and controller take about twenty slabs
/// of about 1 KB; in a child task they are freed as soon as the response is built, and the connection's task then
/// writes the body from a shallow depth. Per idle stream, 26.0 KiB before, 22.1 with this (docs/events.md, measured
/// with `scripts/bench --events`). Other requests are short, so they skip the child task.
struct ShallowStreamResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context: Sendable {
    typealias Context = Inner.Context
    let inner: Inner
    @Sendable func respond(to request: Request, context: Context) async throws -> Response {
        // The one path whose answers stream for minutes.
        guard request.uri.path == "/api/events" else {
            return try await inner.respond(to: request, context: context)
        }
        // Not `async let` nor a cancellation handler: each would need a slab of its own in this task, kept as long.
        // Nothing to cancel either: building a stream's response takes at most a read or two; the stream itself
        // is written by this task.
        return try await Task { try await inner.respond(to: request, context: context) }.value
    }
}
