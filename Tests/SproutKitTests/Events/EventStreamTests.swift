import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import SproutKit
import Testing

/// `EventStream` over a scripted transport: what it sends, how it reads frames, reconnects and stops.
@Suite struct EventStreamTests {
    static let base = URL(string: "http://127.0.0.1:9")!
    static let noJitter = EventStreamBackoff(initial: .seconds(1), maximum: .seconds(8), jitter: 0)

    static func ready(_ id: String, _ json: String = #"{"topics":{"community":12}}"#) -> String {
        "event: ready\nid: \(id)\ndata: \(json)\n\n"
    }

    static func created(_ seq: Int) -> String {
        "event: post.created\nid: community=\(seq)\ndata: {\"topic\":\"community\",\"seq\":\(seq),\"action\":\"post.created\",\"id\":\"\(seq)\",\"parentId\":null,\"item\":{\"id\":\(seq),\"text\":\"글\"}}\n\n"
    }

    /// The first `count` events of `stream`.
    static func first(_ count: Int, of stream: EventStream) async throws -> [LiveEvent] {
        var events: [LiveEvent] = []
        for try await event in stream {
            events.append(event)
            if events.count == count { break }
        }
        return events
    }

    @Test func theRequestNamesTheTopicsAndCarriesTheToken() async throws {
        let transport = ScriptedEventTransport([.stayOpen(chunks: [Self.ready("community=12")])])
        let client = APIClient(baseURL: Self.base, tokenProvider: { "token-1" })
        let stream = EventStream(client: client, topics: [.community, .board(3), .todos], transport: transport)
        let events = try await Self.first(1, of: stream)
        #expect(events == [.ready(cursors: ["community": 12])])
        let request = try #require(transport.requests.first)
        let query = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?.queryItems
        #expect(request.url?.path == "/api/events" && query == [URLQueryItem(name: "topics", value: "community,board:3,todos")])
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/event-stream")
        #expect(request.value(forHTTPHeaderField: "Last-Event-ID") == nil)
    }

    @Test func framesBecomeChangesWithTheirItemAndResets() async throws {
        let reset = "event: reset\nid: community=9000\ndata: {\"topic\":\"community\"}\n\n"
        let deleted = #"event: comment.deleted"# + "\nid: community=14\ndata: " + #"{"topic":"community","seq":14,"action":"comment.deleted","id":"7","parentId":"13"}"# + "\n\n"
        let transport = ScriptedEventTransport([.stayOpen(chunks: [Self.ready("community=12") + Self.created(13), "event: unknown\ndata: not json\n\n" + deleted, reset])])
        let events = try await Self.first(4, of: EventStream(client: APIClient(baseURL: Self.base), topics: [.community], transport: transport))
        guard case .change(let created) = events[1], case .change(let comment) = events[2] else {
            Issue.record("expected two changes, got \(events)")
            return
        }
        #expect(created.topic == "community" && created.seq == 13 && created.kind == .created && created.entity == "post" && created.intID == 13)
        struct Row: Decodable, Equatable { let id: Int; let text: String }
        #expect(try created.item(as: Row.self) == Row(id: 13, text: "글"))
        #expect(comment.kind == .deleted && comment.entity == "comment" && comment.parentID == "13" && comment.item == nil)
        #expect(events[3] == .reset(topic: "community"))
    }

    @Test func reconnectingSendsTheLastIDAndBacksOffUntilAnEventArrives() async throws {
        let transport = ScriptedEventTransport([
            .close(status: 200, chunks: ["retry: 2000\n\n", Self.ready("community=12"), Self.created(13), "event: post.created\nid: community=99\ndata: {\"cut\":"]),
            .fail,
            .close(status: 503, chunks: ["{}"]),
            .close(status: 429, chunks: []),
            .stayOpen(chunks: [Self.created(14)]),
        ])
        let sleeper = RecordingSleeper()
        let stream = EventStream(client: APIClient(baseURL: Self.base), topics: [.community], transport: transport, backoff: Self.noJitter, sleep: sleeper.sleep)
        let events = try await Self.first(3, of: stream)
        #expect(events.count == 3)
        // The half-sent frame's id never counted: the server replays from 13.
        #expect(transport.requests.dropFirst().map { $0.value(forHTTPHeaderField: "Last-Event-ID") } == Array(repeating: "community=13", count: 4))
        // retry: 2000 is the base; it doubles while attempts fail, capped at 8 s.
        #expect(sleeper.delays == [.seconds(2), .seconds(4), .seconds(8), .seconds(8)])
    }

    @Test func aConnectionThatDeliveredStartsTheBackoffAgain() async throws {
        let transport = ScriptedEventTransport([
            .fail, .fail,
            .close(status: 200, chunks: [Self.ready("community=12")]),
            .fail,
            .stayOpen(chunks: [Self.created(13)]),
        ])
        let sleeper = RecordingSleeper()
        let stream = EventStream(client: APIClient(baseURL: Self.base), topics: [.community], transport: transport, backoff: Self.noJitter, sleep: sleeper.sleep)
        _ = try await Self.first(2, of: stream)
        #expect(sleeper.delays == [.seconds(1), .seconds(2), .seconds(1), .seconds(2)])
    }

    @Test func aStreamResumesFromTheIDItWasGiven() async throws {
        let transport = ScriptedEventTransport([.stayOpen(chunks: [Self.created(13)])])
        let stream = EventStream(client: APIClient(baseURL: Self.base), topics: [.community], lastEventID: "community=12", transport: transport)
        _ = try await Self.first(1, of: stream)
        #expect(transport.requests.first?.value(forHTTPHeaderField: "Last-Event-ID") == "community=12")
    }

    @Test func a401EndsTheStreamAndTellsTheTokensOwner() async throws {
        let transport = ScriptedEventTransport([.close(status: 401, chunks: [#"{"error":{"status":401,"message":"no token"}}"#])])
        let rejected = RejectedTokens()
        let client = APIClient(baseURL: Self.base, tokenProvider: { "stale" }, onUnauthorized: { await rejected.add($0) })
        let sleeper = RecordingSleeper()
        let stream = EventStream(client: client, topics: [.diary], transport: transport, sleep: sleeper.sleep)
        do {
            _ = try await Self.first(1, of: stream)
            Issue.record("the stream went on after 401")
        } catch let error as APIError {
            #expect(error.statusCode == 401)
        }
        #expect(transport.requests.count == 1 && sleeper.delays.isEmpty)
        #expect(await rejected.tokens == ["stale"])
    }

    @Test(arguments: [400, 403, 404])
    func aRefusalThatWaitingCannotChangeEndsTheStream(status: Int) async throws {
        let transport = ScriptedEventTransport([.close(status: status, chunks: [])])
        let stream = EventStream(client: APIClient(baseURL: Self.base), topics: [.board(99)], transport: transport, sleep: RecordingSleeper().sleep)
        do {
            _ = try await Self.first(1, of: stream)
            Issue.record("the stream went on after \(status)")
        } catch let error as APIError {
            #expect(error.statusCode == status)
        }
        #expect(transport.requests.count == 1)
    }

    @Test func cancellingTheConsumerEndsTheStream() async throws {
        let transport = ScriptedEventTransport([.stayOpen(chunks: [Self.ready("community=12")])])
        let stream = EventStream(client: APIClient(baseURL: Self.base), topics: [.community], transport: transport)
        let received = Counter()
        let consumer = Task {
            for try await _ in stream { received.increment() }
            return "ended"
        }
        try await eventually { received.value == 1 }
        consumer.cancel()
        #expect(try await consumer.value == "ended")
        #expect(transport.requests.count == 1)
    }

    @Test func backoffDoublesFromTheBaseUpToTheMaximumWithinItsJitter() {
        let backoff = EventStreamBackoff(initial: .seconds(1), maximum: .seconds(30), jitter: 0.25)
        #expect(backoff.delay(afterFailures: 1, random: 0) == .seconds(1))
        #expect(backoff.delay(afterFailures: 3, random: 1) == .seconds(5))
        #expect(backoff.delay(afterFailures: 3, base: .seconds(2), random: 0) == .seconds(8))
        #expect(backoff.delay(afterFailures: 40, random: 1) == .seconds(30))
        let random = backoff.delay(afterFailures: 2)
        #expect(random >= .seconds(2) && random <= .milliseconds(2500))
    }
}

actor RejectedTokens {
    private(set) var tokens: [String] = []
    func add(_ token: String) { tokens.append(token) }
}

final class Counter: @unchecked Sendable {
    // Every access to `count` holds `lock`.
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
