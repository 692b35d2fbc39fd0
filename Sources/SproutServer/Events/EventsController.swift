import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /api/events?topics=…`: a server-sent event stream of the topics' changes (docs/events.md).
///
/// Before a stream starts, its cost is a parse of `topics` (at most 8, 200 bytes), the caller the middleware
/// already resolved, and for a board one read; then a slot (`EventStreamSlots`) bounds how many one account,
/// one address and the process hold. An open stream costs its connection and a buffer of at most
/// `EventHub.bufferedMessages` messages.
struct EventsController<Context: CallerRequestContext & ConnectionRequestContext>: Sendable {
    let hub: EventHub
    let slots: EventStreamSlots
    let executor: any SQLExecutor
    let lifetime: Duration

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("api/events", use: stream)
        return routes
    }

    @Sendable func stream(_ request: Request, context: Context) async throws -> Response {
        let requested = try EventTopics.parse(request.uri.queryParameters.get("topics"))
        let topics = try await resolve(requested, for: context.caller)
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.xAccelBuffering] = "no"
        // HEAD (answered by this route too) opens nothing: its body would never be written.
        guard request.method != .head else { return Response(status: .ok, headers: headers) }
        let slot: EventStreamSlots.Slot
        do {
            slot = try slots.take(account: context.caller.account?.id, address: context.client.address)
        } catch {
            throw EventStreamError.tooMany(error)
        }
        let subscription: EventHub.Subscription
        do {
            subscription = try await hub.subscribe(to: topics.map(\.logName), lifetime: lifetime * Double.random(in: 0.9...1.1))
        } catch is EventHub.Closed {
            slot.release()
            throw EventStreamError.shuttingDown
        }
        let lastEventID = request.headers[.lastEventID] ?? request.uri.queryParameters.get("lastEventId")
        let stream: EventStreamWriter
        do {
            stream = try await EventStreamWriter.open(
                topics: topics, subscription: subscription, cursors: EventTopics.cursors(lastEventID), log: hub.log, items: hub.items
            )
        } catch {
            subscription.end()
            slot.release()
            throw error
        }
        // A client gone ends its subscription now, not at the next heartbeat, and gives its slot back.
        let watch = try? await ClientDepartureWatcher.watch(context.channel) { subscription.end() }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer {
                slot.release()
                watch?.end()
            }
            try await stream.run(&writer)
        })
    }

    /// The log's names of the topics, or the error that refuses this caller one of them.
    private func resolve(_ requested: [EventTopics.Requested], for caller: Caller) async throws -> [EventTopics.Topic] {
        var topics: [EventTopics.Topic] = []
        for topic in requested {
            let logName: String
            switch (topic, caller) {
            case (_, .rejected):
                throw EventStreamError.rejected
            case (.board(let id), .account), (.board(let id), .boardAPIToken):
                // Every board call needs a token (the Board's contract); the static one reads every board.
                guard try await executor.readFirst("SELECT id AS value FROM board_boards WHERE id = \(bind: id)", as: SQLInt.self) != nil else {
                    throw EventStreamError.boardNotFound
                }
                logName = topic.name
            case (.board, .anonymous), (.diary, .anonymous):
                throw EventStreamError.unauthorized
            case (_, .boardAPIToken):
                // The static token reads boards and owns nothing else.
                throw EventStreamError.rejected
            case (.community, _), (.market, _):
                logName = topic.name
            case (.todos, .account(let account, _)):
                logName = "todos:\(account.id)"
            case (.todos, .anonymous):
                logName = "todos:shared"
            case (.diary, .account(let account, _)):
                logName = "diary:\(account.id)"
            }
            topics.append(EventTopics.Topic(name: topic.name, logName: logName))
        }
        return topics
    }
}

/// A request context that knows the client's connection.
protocol ConnectionRequestContext: RequestContext {
    var channel: any Channel { get }
}

extension SproutRequestContext: ConnectionRequestContext {}

extension HTTPField.Name {
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// nginx's: do not buffer this answer.
    static let xAccelBuffering = HTTPField.Name("X-Accel-Buffering")!
}
