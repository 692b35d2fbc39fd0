import Logging
import NIOConcurrencyHelpers

/// One process's fan-out of the event log to its open streams.
///
/// Each topic with subscribers has a cursor: every event up to it has been handed to the topic's subscribers of
/// the moment, and every later one will be. A wake-up (`wake`: SQLite's writer after a commit, PostgreSQL's
/// `NOTIFY`, the catch-up poll) makes the hub read the topic's events after its cursor, enrich them once
/// (`EventItems`) and hand them to each subscriber's buffer. So the log is read once per node and event, however
/// many streams follow the topic, and a missed wake-up is only a delay: the next read finds what it missed.
actor EventHub {
    /// What a stream receives.
    enum Message: Sendable {
        case events(EventBatch)
        case heartbeat
    }

    /// One stream's subscription: its messages, and for each topic the cursor it starts after.
    struct Subscription: Sendable {
        let messages: AsyncStream<Message>
        let startsAfter: [String: Int]
        fileprivate let continuation: AsyncStream<Message>.Continuation

        /// Ends the messages (the client has gone); the hub forgets the subscriber.
        func end() {
            continuation.finish()
        }
    }

    struct Closed: Error {}

    /// Messages a stream may have waiting before it is closed as too slow (its client reconnects and replays).
    static let bufferedMessages = 256
    static let heartbeatInterval: Duration = .seconds(15)
    /// A topic is read at most once per this interval: under a burst of writes its events go out in batches, one
    /// write per stream and batch rather than one per event (what each stream costs the CPU under load), for at
    /// most this much more delay. The interval grows with the topic's streams, 50 µs each, from 10 ms to 50 ms:
    /// handing a batch to 1,000 streams wakes 1,000 tasks, and under a burst of creates at 100 batches a second
    /// those wake-ups starved the creates themselves. While the topic is in a burst (its last read found more than
    /// `burstEvents`), the interval is four times as long, at most 200 ms: each write to a socket has a cost of its
    /// own besides its bytes, and 1,000 streams receiving every create at 50 ms held creates to 0.33 of their rate
    /// alone, at 200 ms 0.62 (docs/events.md). A lone event after a quiet spell goes out at once either way, and
    /// events a few at a time go out within the short interval.
    static func batchInterval(streams: Int, lastRead events: Int) -> Duration {
        let interval = min(50_000, max(10_000, streams * 50))
        return .microseconds(events > burstEvents ? min(200_000, interval * 4) : interval)
    }

    /// More events than this in one read of a topic is a burst (`batchInterval`).
    static let burstEvents = 16

    private struct Subscriber {
        let topics: [String]
        let continuation: AsyncStream<Message>.Continuation
        /// When the stream ends (its lifetime): one deadline here rather than a sleeping task per stream.
        let endsAt: ContinuousClock.Instant?
    }

    /// How often lifetimes are checked: a stream lives at most this much past its own.
    static let lifetimeCheckInterval: Duration = .milliseconds(250)

    private struct TopicState {
        /// nil while the first subscriber reads where the topic stands.
        var cursor: Int?
        var subscribers: Set<UInt64> = []
        var refreshing = false
        var dirty = false
        var lastRead: ContinuousClock.Instant?
        /// How many events the last read found.
        var lastReadEvents = 0
    }

    let log: EventLog
    /// The readers, installed by the application (`use(_:)`): the Market's need its public URL, which the database
    /// that makes the hub does not know. Until then, ids only.
    private nonisolated let installedItems: NIOLockedValueBox<EventItems>
    nonisolated var items: EventItems { installedItems.withLockedValue { $0 } }
    let logger: Logger
    /// Wake-ups from outside the actor, coalesced: only topics someone follows, and one task at a time.
    nonisolated let wakeups: EventWakeups
    /// Starts what brings wake-ups (SQLite's commit hook, PostgreSQL's listener), once, with the first subscriber.
    private let start: @Sendable (EventHub) async throws -> [Task<Void, Never>]

    private var topics: [String: TopicState] = [:]
    private var subscribers: [UInt64: Subscriber] = [:]
    private var nextID: UInt64 = 0
    private var closed = false
    private var started = false
    private var background: [Task<Void, Never>] = []

    init(log: EventLog, items: EventItems = EventItems(), logger: Logger, start: @escaping @Sendable (EventHub) async throws -> [Task<Void, Never>]) {
        self.log = log
        installedItems = NIOLockedValueBox(items)
        self.logger = logger
        self.start = start
        wakeups = EventWakeups()
    }

    var subscriberCount: Int { subscribers.count }

    /// Enriches events with these readers from now on.
    nonisolated func use(_ items: EventItems) {
        installedItems.withLockedValue { $0 = items }
    }

    /// Subscribes to topics (the log's names). Throws `Closed` once the process is shutting down.
    func subscribe(to wanted: [String], lifetime: Duration? = nil) async throws -> Subscription {
        guard !closed else { throw Closed() }
        try await startIfNeeded()
        let id = nextID
        nextID += 1
        let (messages, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .bufferingOldest(Self.bufferedMessages))
        subscribers[id] = Subscriber(topics: wanted, continuation: continuation, endsAt: lifetime.map { .now + $0 })
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            Task { await self.unsubscribe(id) }
        }
        var fresh: [String] = []
        for topic in wanted {
            if topics[topic] == nil {
                topics[topic] = TopicState()
                fresh.append(topic)
            }
            topics[topic]?.subscribers.insert(id)
        }
        wakeups.follow(Set(wanted))
        do {
            for topic in wanted where topics[topic]?.cursor == nil {
                let newest = try await log.lastSeq(of: topic)
                if topics[topic] != nil, topics[topic]?.cursor == nil { topics[topic]?.cursor = newest }
            }
        } catch {
            unsubscribe(id)
            continuation.finish()
            throw error
        }
        guard subscribers[id] != nil else { throw Closed() }
        var startsAfter: [String: Int] = [:]
        for topic in wanted { startsAfter[topic] = topics[topic]?.cursor ?? 0 }
        // Anything that committed while the cursor was read, or a wake-up that came meanwhile.
        for topic in fresh { refresh(topic) }
        return Subscription(messages: messages, startsAfter: startsAfter, continuation: continuation)
    }

    private func unsubscribe(_ id: UInt64) {
        guard let subscriber = subscribers.removeValue(forKey: id) else { return }
        var unfollowed: Set<String> = []
        for topic in subscriber.topics {
            topics[topic]?.subscribers.remove(id)
            if topics[topic]?.subscribers.isEmpty == true, topics[topic]?.refreshing == false {
                topics[topic] = nil
                unfollowed.insert(topic)
            }
        }
        wakeups.unfollow(unfollowed)
    }

    /// Reads the topic's new events and hands them out, unless a read is under way (it reads again when done).
    func refresh(_ topic: String) {
        guard topics[topic] != nil else { return }
        guard topics[topic]?.refreshing == false, topics[topic]?.cursor != nil else {
            topics[topic]?.dirty = true
            return
        }
        topics[topic]?.refreshing = true
        Task { await self.readNewEvents(topic) }
    }

    private func readNewEvents(_ topic: String) async {
        while let state = topics[topic], let cursor = state.cursor {
            let interval = Self.batchInterval(streams: state.subscribers.count, lastRead: state.lastReadEvents)
            if let lastRead = state.lastRead, lastRead.duration(to: .now) < interval {
                try? await Task.sleep(until: lastRead + interval)
            }
            topics[topic]?.lastRead = .now
            topics[topic]?.dirty = false
            let (events, readAll, failure) = await readEvents(in: topic, after: cursor)
            topics[topic]?.lastReadEvents = events.count
            if !events.isEmpty { hand(events, in: topic) }
            if let failure {
                logger.warning("could not read the event log", metadata: ["topic": "\(topic)", "error": "\(failure)"])
                break
            }
            guard topics[topic]?.dirty == true || !readAll else { break }
        }
        topics[topic]?.refreshing = false
        if topics[topic]?.subscribers.isEmpty == true {
            topics[topic] = nil
            wakeups.unfollow([topic])
        }
    }

    /// The most events one read of a topic hands out. A full page of the log means more are waiting, so a read
    /// goes on page after page up to this many, which go out as one batch: reading one page an interval capped
    /// a topic at 2,500 events a second under a burst, and a faster burst left its streams ever further behind
    /// (todos created at 9,000 a second reached 1,000 followers at 2,480 a second, the rest after the burst).
    /// Each page is enriched on its own, so an item read asks for at most a page's ids.
    static let maximumBatchEvents = 10 * EventLog.pageSize

    /// The topic's events after `cursor`, enriched, up to `maximumBatchEvents`; `readAll` when the last page read
    /// was not full. A failure ends the read: what was read before it is still handed out.
    private func readEvents(in topic: String, after cursor: Int) async -> (events: [LiveEvent], readAll: Bool, failure: (any Error)?) {
        var events: [LiveEvent] = []
        var after = cursor
        while events.count < Self.maximumBatchEvents {
            let page: [LoggedEvent]
            do {
                page = try await log.events(in: topic, after: after)
            } catch {
                return (events, false, error)
            }
            if !page.isEmpty {
                let (enriched, failure) = await items.enrich(page)
                if let failure {
                    logger.warning("events sent without their items", metadata: ["topic": "\(topic)", "error": "\(failure)"])
                }
                events += enriched
            }
            guard page.count == EventLog.pageSize, let last = page.last else { return (events, true, nil) }
            after = last.seq
        }
        return (events, false, nil)
    }

    /// Hands events to the topic's subscribers and moves its cursor past them, with no suspension between.
    private func hand(_ events: [LiveEvent], in topic: String) {
        guard let last = events.last, let state = topics[topic] else { return }
        let batch = EventBatch(events)
        for id in state.subscribers {
            guard let subscriber = subscribers[id] else { continue }
            if case .dropped = subscriber.continuation.yield(.events(batch)) {
                // Too slow: closed, so its memory stays bounded; it reconnects and replays from the log.
                subscriber.continuation.finish()
                unsubscribe(id)
            }
        }
        topics[topic]?.cursor = last.seq
    }

    /// Rereads every followed topic whose newest event is past its cursor: after PostgreSQL's listener
    /// (re)connects, and now and then for SQLite writes made by another process (`sprout` commands).
    func catchUp() async {
        let followed = topics.compactMap { topic, state in state.cursor.map { (topic, $0) } }
        for chunk in stride(from: 0, to: followed.count, by: 500).map({ followed[$0..<min($0 + 500, followed.count)] }) {
            do {
                let newest = try await log.lastSeqs(of: chunk.map(\.0))
                for (topic, cursor) in chunk where (newest[topic] ?? 0) > cursor { refresh(topic) }
            } catch {
                logger.warning("could not read the event log", metadata: ["error": "\(error)"])
                return
            }
        }
    }

    /// Tells every stream the connection lives (a comment line).
    func beat() {
        for (id, subscriber) in subscribers {
            if case .dropped = subscriber.continuation.yield(.heartbeat) {
                subscriber.continuation.finish()
                unsubscribe(id)
            }
        }
    }

    /// Ends the streams whose lifetime is over; their clients reconnect (maybe to another node).
    func endExpired(now: ContinuousClock.Instant = .now) {
        for (id, subscriber) in subscribers {
            guard let endsAt = subscriber.endsAt, endsAt <= now else { continue }
            subscriber.continuation.finish()
            unsubscribe(id)
        }
    }

    /// Ends every stream and stops listening: the process is shutting down, and clients reconnect elsewhere.
    func close() {
        closed = true
        for subscriber in subscribers.values { subscriber.continuation.finish() }
        subscribers = [:]
        topics = [:]
        for task in background { task.cancel() }
        background = []
    }

    private func startIfNeeded() async throws {
        guard !started else { return }
        started = true
        do {
            let tasks = try await start(self)
            let heartbeat = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.heartbeatInterval)
                    await self?.beat()
                }
            }
            let lifetimes = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.lifetimeCheckInterval)
                    await self?.endExpired()
                }
            }
            background = tasks + [heartbeat, lifetimes]
            wakeups.deliver { [weak self] topics in
                guard let self else { return }
                Task { await self.refresh(topics) }
            }
            if closed { close() }
        } catch {
            started = false
            throw error
        }
    }

    private func refresh(_ topics: Set<String>) {
        for topic in topics { refresh(topic) }
    }
}

/// Wake-ups from any thread (SQLite's writer, the PostgreSQL listener), filtered to the topics someone follows so a
/// commit nobody listens to costs one lock; delivered to the hub in sets.
final class EventWakeups: Sendable {
    private struct State {
        var followed: Set<String> = []
        var deliver: (@Sendable (Set<String>) -> Void)?
    }

    private let state = NIOLockedValueBox(State())

    func follow(_ topics: Set<String>) {
        state.withLockedValue { $0.followed.formUnion(topics) }
    }

    func unfollow(_ topics: Set<String>) {
        state.withLockedValue { $0.followed.subtract(topics) }
    }

    func deliver(to action: @escaping @Sendable (Set<String>) -> Void) {
        state.withLockedValue { $0.deliver = action }
    }

    /// These topics have new events (some may not: a rolled-back savepoint's, another schema's).
    func wake(_ topics: some Sequence<String>) {
        let (followed, deliver) = state.withLockedValue { state in
            (Set(topics.filter { state.followed.contains($0) }), state.deliver)
        }
        if !followed.isEmpty { deliver?(followed) }
    }
}
