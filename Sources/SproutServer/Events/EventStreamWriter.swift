import Hummingbird
import NIOCore

/// Writes one stream: `retry`, `ready`, any `reset`, the replay of what the client missed (from the log), then the
/// hub's events and heartbeats until the hub ends the subscription (shutdown, or a client too slow to keep up).
struct EventStreamWriter: Sendable {
    let topics: [EventTopics.Topic]
    let subscription: EventHub.Subscription
    /// The client's cursors from `Last-Event-ID`, by topic name.
    let cursors: [String: Int]
    let log: EventLog
    let items: EventItems

    /// How long a client waits before reconnecting (EventSource's `retry`).
    static let retryMilliseconds = 2000

    func run(_ writer: inout any ResponseBodyWriter) async throws {
        var sent = try await start(&writer)
        for await message in subscription.messages {
            switch message {
            case .heartbeat:
                try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
            case .events(let batch):
                if topics.count == 1, let first = batch.events.first, let last = batch.events.last,
                   first.seq > sent[first.topic] ?? 0 {
                    sent[first.topic] = last.seq
                    try await writer.write(batch.singleTopicFrames)
                } else {
                    try await write(batch.events, sent: &sent, to: &writer)
                }
            }
        }
        try await writer.finish(nil)
    }

    /// Writes `retry`, `ready`, any `reset` and the replay; returns the last number each topic has sent, or starts
    /// after. Apart from `run` (and never inlined) so the large frame of these steps is freed before the long wait:
    /// a task keeps the slabs its deepest frame needed for as long as it lives, and this one lives with the stream.
    @inline(never)
    private func start(_ writer: inout any ResponseBodyWriter) async throws -> [String: Int] {
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
        buffer.writeString("event: ready\nid: \(id(sent))\ndata: {\"topics\":{")
        for (index, topic) in topics.enumerated() {
            buffer.writeString("\(index == 0 ? "" : ",")\"\(topic.name)\":\(sent[topic.logName] ?? 0)")
        }
        buffer.writeString("}}\n\n")
        for topic in resets {
            buffer.writeString("event: reset\nid: \(id(sent))\ndata: {\"topic\":\"\(topic.name)\"}\n\n")
        }
        try await writer.write(buffer)

        for topic in replays {
            while true {
                let logged = try await log.events(in: topic.logName, after: sent[topic.logName] ?? 0)
                guard !logged.isEmpty else { break }
                try await write(await items.enrich(logged).events, sent: &sent, to: &writer)
                if logged.count < EventLog.pageSize { break }
            }
        }
        return sent
    }

    /// The events this stream has not sent yet (a replay may have sent some the hub hands out again), in one write.
    private func write(_ events: [LiveEvent], sent: inout [String: Int], to writer: inout any ResponseBodyWriter) async throws {
        var buffer = ByteBuffer()
        for event in events where event.seq > sent[event.topic] ?? 0 {
            sent[event.topic] = event.seq
            event.writeFrame(id: id(sent), into: &buffer)
        }
        if buffer.readableBytes > 0 { try await writer.write(buffer) }
    }

    /// `community=13,board:3=5`: every topic's cursor, for `Last-Event-ID`.
    private func id(_ sent: [String: Int]) -> String {
        topics.map { "\($0.name)=\(sent[$0.logName] ?? 0)" }.joined(separator: ",")
    }
}
