import Foundation

/// One frame of a `text/event-stream`, as the parser dispatches it: what `EventSource` in a browser would hand to
/// a listener. `EventStream` reads Sprout's frames out of these.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event` field; `"message"` when the frame named none.
    public var event: String
    /// The `data` lines, joined by `"\n"`.
    public var data: String
    /// The last `id` the stream has set (it carries over to later frames that set none); nil before any.
    public var lastEventID: String?

    /// A frame with these fields.
    public init(event: String = "message", data: String, lastEventID: String? = nil) {
        self.event = event
        self.data = data
        self.lastEventID = lastEventID
    }
}
