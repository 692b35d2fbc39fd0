import Hummingbird
import NIOCore

/// Writes one stream: `retry`, `ready`, any `reset`, the replay of what the client missed (from the log), then the
/// hub's events and heartbeats until the hub ends the subscription (shutdown, or a client too slow to keep up).
///
/// Built by `open` while the response is made, in that request's own task (`ShallowStreamResponder`); `run` is
/// then called by the connection's task, which lives as long as the stream and keeps the allocator slabs (about
/// 1 KB each) its deepest await needed. So `run` holds little and makes every write from its own frame, and the
/// log reads a reconnecting client's cursors need are done by `open`.
struct EventStreamWriter: Sendable {
    let topics: [EventTopics.Topic]
    let subscription: EventHub.Subscription
    let log: EventLog
    let items: EventItems
    /// `retry`, `ready` and any `reset`, as the stream's first write.
    let openingFrames: ByteBuffer
    /// The last number each topic has sent, or starts after.
    let startsAfter: [String: Int]
    /// The topics whose missed events are replayed from the log before the live ones.
    let replays: [EventTopics.Topic]

    /// How long a client waits before reconnecting (EventSource's `retry`).
    static let retryMilliseconds = 2000

    /// Compares the client's cursors (from `Last-Event-ID`, by topic name) with the log: a cursor the log still
    /// covers is replayed from, one it no longer covers (or a number it never gave) gets a `reset`.
    static func open(
        topics: [EventTopics.Topic], subscription: EventHub.Subscription, cursors: [String: Int], log: EventLog, items: EventItems
    ) async throws -> EventStreamWriter {
        var sent: [String: Int] = [:]
        var resets: [EventTopics.Topic] = []
        var replays: [EventTopics.Topic] = []
        for topic in topics {
            let start = subscription.startsAfter[topic.logName] ?? 0
            sent[topic.logName] = start
            guard let cursor = cursors[topic.name] else { continue }
            let newest = max(start, try await log.lastSeq(of: topic.logName))
            let oldestKept = try await log.oldestSeq(of: topic.logName) ?? newest + 1
            if cursor > newest || cursor < oldestKept - 1 {
                resets.append(topic)
            } else if cursor < newest {
                sent[topic.logName] = cursor
                replays.append(topic)
            }
        }
        var buffer = ByteBuffer()
        buffer.writeString("retry: \(Self.retryMilliseconds)\n\n")
        buffer.writeString("event: ready\nid: \(id(topics, sent))\ndata: {\"topics\":{")
        for (index, topic) in topics.enumerated() {
            buffer.writeString("\(index == 0 ? "" : ",")\"\(topic.name)\":\(sent[topic.logName] ?? 0)")
        }
        buffer.writeString("}}\n\n")
        for topic in resets {
            buffer.writeString("event: reset\nid: \(id(topics, sent))\ndata: {\"topic\":\"\(topic.name)\"}\n\n")
        }
        return EventStreamWriter(
            topics: topics, subscription: subscription, log: log, items: items,
            openingFrames: buffer, startsAfter: sent, replays: replays
        )
    }

    func run(_ writer: inout any ResponseBodyWriter) async throws {
        var sent = startsAfter
        try await writer.write(openingFrames)
        if !replays.isEmpty {
            try await replay(sent: &sent, to: &writer)
        }
        for await message in subscription.messages {
            if let frames = frames(for: message, sent: &sent) {
                try await writer.write(frames)
            }
        }
        try await writer.finish(nil)
    }

    /// The bytes one message from the hub adds to the stream, if any. Not inlined: its locals stay on the thread's
    /// stack instead of in `run`'s frame.
    @inline(never)
    private func frames(for message: EventHub.Message, sent: inout [String: Int]) -> ByteBuffer? {
        switch message {
        case .heartbeat:
            return ByteBuffer(string: ": heartbeat\n\n")
        case .events(let batch):
            if topics.count == 1, let first = batch.events.first, let last = batch.events.last,
               first.seq > sent[first.topic] ?? 0 {
                sent[first.topic] = last.seq
                return batch.singleTopicFrames
            }
            return frames(of: batch.events, sent: &sent)
        }
    }

    /// What a reconnecting client missed, from the log, page by page (only such a stream pays for this frame).
    @inline(never)
    private func replay(sent: inout [String: Int], to writer: inout any ResponseBodyWriter) async throws {
        for topic in replays {
            while true {
                let logged = try await log.events(in: topic.logName, after: sent[topic.logName] ?? 0)
                guard !logged.isEmpty else { break }
                if let frames = frames(of: await items.enrich(logged).events, sent: &sent) {
                    try await writer.write(frames)
                }
                if logged.count < EventLog.pageSize { break }
            }
        }
    }

    /// The events this stream has not sent yet (a replay may have sent some the hub hands out again), as one
    /// buffer, or nil when there are none.
    @inline(never)
    private func frames(of events: [LiveEvent], sent: inout [String: Int]) -> ByteBuffer? {
        var buffer = ByteBuffer()
        for event in events where event.seq > sent[event.topic] ?? 0 {
            sent[event.topic] = event.seq
            event.writeFrame(id: Self.id(topics, sent), into: &buffer)
        }
        return buffer.readableBytes > 0 ? buffer : nil
    }

    /// `community=13,board:3=5`: every topic's cursor, for `Last-Event-ID`.
    private static func id(_ topics: [EventTopics.Topic], _ sent: [String: Int]) -> String {
        topics.map { "\($0.name)=\(sent[$0.logName] ?? 0)" }.joined(separator: ",")
    }
}
