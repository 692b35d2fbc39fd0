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
    /// Its frame waits in the connection's task while a stream's response is built, so it holds little: the
    /// decision and the child task are made by a synchronous function.
    @Sendable func respond(to request: Request, context: Context) async throws -> Response {
        if let child = childTaskIfStream(request, context) {
            return try await child.value
        }
        return try await inner.respond(to: request, context: context)
    }

    /// For the one path whose answers stream for minutes, the task that builds its response. Not `async let` nor a
    /// cancellation handler: each would need a slab of its own in this task, kept as long. Nothing to cancel
    /// either: building a stream's response takes at most a read or two; the stream itself is written by the
    /// connection's task.
    @inline(never)
    private func childTaskIfStream(_ request: Request, _ context: Context) -> Task<Response, any Error>? {
        guard request.uri.path == "/api/events" else { return nil }
        return Task { [inner] in try await inner.respond(to: request, context: context) }
    }
}
