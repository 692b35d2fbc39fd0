import NIOCore

/// One logged event as every subscriber of a node receives it: read from the log and enriched once, then written
/// to each stream with that stream's own `id` line.
struct LiveEvent: Sendable {
    /// The topic as the log names it (`todos:7`).
    let topic: String
    let seq: Int
    /// The SSE event name: the logged action, or `….deleted` for an item hidden from the public.
    let action: String
    /// The `data` line's JSON, on one line.
    let data: ByteBuffer

    /// The SSE frame of this event with the stream's `id` line.
    func writeFrame(id: String, into buffer: inout ByteBuffer) {
        buffer.writeString("event: \(action)\nid: \(id)\ndata: ")
        buffer.writeImmutableBuffer(data)
        buffer.writeString("\n\n")
    }

    /// `todos:7` and `todos:shared` are subscribed to as `todos`, `diary:7` as `diary`: the name a client used.
    static func publicName(of topic: String) -> String {
        if topic.hasPrefix("todos:") { return "todos" }
        if topic.hasPrefix("diary:") { return "diary" }
        return topic
    }

    /// `post.created` → `post`.
    static func noun(of action: String) -> Substring {
        action.split(separator: ".", maxSplits: 1).first ?? Substring(action)
    }

    init(_ event: LoggedEvent, item: EventItem?) {
        topic = event.topic
        seq = event.seq
        let noun = Self.noun(of: event.action)
        var action = event.action
        var row: ByteBuffer?
        switch item {
        case .row(let json): row = event.action.hasSuffix(".deleted") ? nil : json
        case .gone: action = "\(noun).deleted"
        case nil: break
        }
        self.action = action
        var writer = JSONWriter(capacity: 128 + (row?.readableBytes ?? 0))
        writer.raw("{\"action\":")
        writer.string(action)
        writer.raw(",\"id\":")
        writer.string(event.item)
        if let row {
            writer.raw(",\"item\":")
            writer.rawJSON(row)
        }
        writer.raw(",\"parentId\":")
        if let parent = event.parent { writer.string(String(parent)) } else { writer.raw("null") }
        writer.raw(",\"seq\":")
        writer.int(event.seq)
        writer.raw(",\"topic\":")
        writer.string(Self.publicName(of: event.topic))
        writer.raw("}")
        data = writer.buffer
    }
}

/// Events of one topic handed out together, with their frames as every stream of that topic alone writes them
/// (its `id` line is only that topic's cursor): rendered once per node, so each such stream writes the same bytes
/// (one shared buffer, no copy) instead of formatting every event for itself.
struct EventBatch: Sendable {
    let events: [LiveEvent]
    let singleTopicFrames: ByteBuffer

    init(_ events: [LiveEvent]) {
        self.events = events
        var frames = ByteBuffer()
        for event in events {
            event.writeFrame(id: "\(LiveEvent.publicName(of: event.topic))=\(event.seq)", into: &frames)
        }
        singleTopicFrames = frames
    }
}

/// What subscribers see of one item, read once per node for a batch of events.
enum EventItem: Sendable {
    /// The row as the topic's list shows it (one element of the list endpoint's JSON).
    case row(ByteBuffer)
    /// Deleted, or hidden from the public by a moderator: subscribers are told it is deleted.
    case gone
}

/// Reads the rows a topic's events are about, for the events' `item`. One reader per noun (`post`, `todo`, …).
protocol EventItemReader: Sendable {
    /// The items with these ids; an id left out is sent without an item (ids only).
    func items(ids: [String]) async throws -> [String: EventItem]
}

/// The readers by noun; a noun without one (`entry`: the Diary sends ids only) gets ids only.
struct EventItems: Sendable {
    var readers: [String: any EventItemReader] = [:]

    /// Each event with its item, read in one call per noun. A reader that fails costs only the items (logged by
    /// the caller): the events still go out, with ids only.
    func enrich(_ events: [LoggedEvent]) async -> (events: [LiveEvent], failure: (any Error)?) {
        var ids: [Substring: [String]] = [:]
        for event in events where readers[String(LiveEvent.noun(of: event.action))] != nil {
            ids[LiveEvent.noun(of: event.action), default: []].append(event.item)
        }
        var found: [Substring: [String: EventItem]] = [:]
        var failure: (any Error)?
        for (noun, nounIDs) in ids {
            do {
                found[noun] = try await readers[String(noun)]?.items(ids: Array(Set(nounIDs)))
            } catch {
                failure = error
            }
        }
        let live = events.map { event in LiveEvent(event, item: found[LiveEvent.noun(of: event.action)]?[event.item]) }
        return (live, failure)
    }
}
