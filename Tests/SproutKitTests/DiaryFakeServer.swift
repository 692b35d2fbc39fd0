import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// An in-memory Diary server behind the kit's transport seam, following `docs/diary-api.md`: idempotent `PUT`
/// (201/200, an unchanged write keeps its `updatedAt`), tombstones, versions (`replaced`, `conflict`, `deleted`),
/// `since` with `now`/`hasMore`, and the weather. Every request is recorded; failures are injectable, including a
/// write that reaches the server whose answer is then lost; answers can be held. The live tests check the same
/// flows against the real server.
final class DiaryFakeServer: HTTPTransport, @unchecked Sendable {
    /// What the next request meets instead of a normal answer.
    enum Failure {
        /// No failure: the request is answered as usual.
        case pass
        /// No answer, and the server never saw the request.
        case offline
        /// The server acts on the request, then the answer is lost.
        case answerLost
        /// The server answers this status with a `{"message"}`.
        case status(Int)
    }

    private struct Stored {
        var entry: DiaryEntryJSON
        var deleted = false
        var versions: [DiaryVersionJSON] = []
    }

    // Every property below is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String: Stored] = [:]
    /// The account's clock, in milliseconds.
    private var clock: Int64 = 1_795_000_000_000
    private var sent: [URLRequest] = []
    private var failures: [Failure] = []
    private var weatherAnswer: (status: Int, weather: DiaryWeatherJSON?) = (200, DiaryFakeServer.clouds)
    private let gate = AnswerGate()

    static let base = URL(string: "http://127.0.0.1:9")!
    static let clouds = DiaryWeatherJSON(main: "Clouds", description: "few clouds", icon: "02n", tempC: 14.1)

    var client: DiaryClient {
        DiaryClient(client: APIClient(baseURL: Self.base, transport: self, tokenProvider: { "test-token" }))
    }

    // MARK: Set-up and inspection

    /// The next requests meet `failures`, in order.
    func fail(_ failures: Failure...) { lock.withLock { self.failures += failures } }

    /// `GET /api/weather` answers `status` (with `weather` when 200).
    func setWeather(status: Int, weather: DiaryWeatherJSON? = nil) { lock.withLock { weatherAnswer = (status, weather) } }

    /// Answers are computed (the server acts) but not returned until `release()`.
    func hold() { gate.hold() }

    func release() { gate.release() }

    var requests: [URLRequest] { lock.withLock { sent } }

    /// `METHOD path` of every request, in order.
    var requestLines: [String] { requests.map { "\($0.httpMethod ?? "GET") \($0.url!.path)" } }

    func requests(_ method: String) -> [URLRequest] { requests.filter { $0.httpMethod == method } }

    /// Waits (briefly) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws {
        try await eventually { self.lock.withLock { self.sent.count >= count } }
    }

    /// The live entries, newest first.
    var liveEntries: [DiaryEntryJSON] {
        lock.withLock { stored.values.filter { !$0.deleted }.map(\.entry).sorted(by: Self.newestFirst) }
    }

    func entry(_ id: UUID) -> DiaryEntryJSON? {
        lock.withLock { stored[Self.key(id)].flatMap { $0.deleted ? nil : $0.entry } }
    }

    func isTombstone(_ id: UUID) -> Bool { lock.withLock { stored[Self.key(id)]?.deleted == true } }

    func versions(_ id: UUID) -> [DiaryVersionJSON] { lock.withLock { stored[Self.key(id)]?.versions ?? [] } }

    /// Another device writes `id` (as a PUT without `baseUpdatedAt`).
    @discardableResult
    func write(_ id: UUID, title: String, body: String, createdAt: String? = nil) -> DiaryEntryJSON {
        lock.withLock { put(Self.key(id), DiaryEntryWriteJSON(title: title, body: body, createdAt: createdAt)).1 }
    }

    /// Another device deletes `id`.
    func remove(_ id: UUID) {
        lock.withLock { _ = delete(Self.key(id)) }
    }

    // MARK: Transport

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (failure, status, body) = lock.withLock { () -> (Failure?, Int, Data) in
            sent.append(request)
            let failure = failures.isEmpty ? nil : failures.removeFirst()
            switch failure {
            case .offline?: return (failure, 0, Data())
            case .status(let code)?: return (failure, code, Self.errorBody("injected failure \(code)"))
            case .answerLost?, .pass?, nil:
                let (status, body) = answer(request)
                return (failure, status, body)
            }
        }
        switch failure {
        case .offline?, .answerLost?: throw URLError(.networkConnectionLost)
        default: break
        }
        await gate.passThrough()
        return (body, HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!)
    }

    // MARK: Routes (called with the lock held)

    private func answer(_ request: URLRequest) -> (Int, Data) {
        guard request.value(forHTTPHeaderField: "Authorization") == "Bearer test-token" else { return (401, Self.errorBody("no token")) }
        let parts = request.url!.path.split(separator: "/").map(String.init)
        let query = Self.query(request)
        let method = request.httpMethod ?? "GET"
        if parts == ["api", "weather"] {
            guard let lat = query["lat"].flatMap(Double.init), let lon = query["lon"].flatMap(Double.init), abs(lat) <= 90, abs(lon) <= 180 else {
                return (400, Self.errorBody("lat and lon"))
            }
            if weatherAnswer.status == 200, let weather = weatherAnswer.weather { return (200, Self.json(weather)) }
            return (weatherAnswer.status, Self.errorBody("weather unavailable"))
        }
        guard parts.count >= 3, Array(parts[0...2]) == ["api", "diary", "entries"] else {
            return (404, Self.errorBody("no route"))
        }
        if parts.count == 3 {
            return query["since"] != nil ? changes(query) : page(query)
        }
        guard let uuid = UUID(uuidString: parts[3]) else { return (400, Self.errorBody("not a UUID")) }
        let id = Self.key(uuid)
        if parts.count == 5, parts[4] == "versions" {
            guard let entry = stored[id] else { return (404, Self.errorBody("never seen")) }
            return (200, Self.json(DiaryVersionsJSON(versions: entry.versions)))
        }
        switch method {
        case "PUT":
            guard let write = try? JSONDecoder().decode(DiaryEntryWriteJSON.self, from: request.httpBody ?? Data()) else {
                return (400, Self.errorBody("bad body"))
            }
            guard !write.title.isEmpty, !write.title.allSatisfy(\.isWhitespace), !write.title.contains(where: \.isNewline), write.title.count <= 1000 else {
                return (400, Self.errorBody("title"))
            }
            let (status, entry) = put(id, write)
            return (status, Self.json(entry))
        case "GET":
            guard let entry = stored[id], !entry.deleted else { return (404, Self.errorBody("no entry")) }
            return (200, Self.json(entry.entry))
        case "DELETE":
            if let base = query["baseUpdatedAt"], let entry = stored[id], !entry.deleted, entry.entry.updatedAt != base {
                return (409, Self.errorBody("moved on since baseUpdatedAt"))
            }
            guard let tombstone = delete(id) else { return (404, Self.errorBody("no entry")) }
            return (200, Self.json(tombstone))
        default:
            return (405, Self.errorBody("method"))
        }
    }

    private func tick() -> String {
        clock += 1
        return DiaryTimestamp.string(fromMilliseconds: clock)
    }

    private func put(_ id: String, _ write: DiaryEntryWriteJSON) -> (Int, DiaryEntryJSON) {
        if var existing = stored[id], !existing.deleted {
            let old = existing.entry
            var new = old
            new.title = write.title
            new.body = write.body
            new.createdAt = write.createdAt ?? old.createdAt
            new.weather = write.weather ?? old.weather
            if new == old { return (200, old) }
            new.updatedAt = tick()
            let reason = write.baseUpdatedAt == old.updatedAt ? "replaced" : "conflict"
            existing.versions.insert(Self.version(old, replacedAt: new.updatedAt, reason: reason), at: 0)
            existing.entry = new
            stored[id] = existing
            return (200, new)
        }
        let now = tick()
        let entry = DiaryEntryJSON(
            id: id, title: write.title, body: write.body, createdAt: write.createdAt ?? now, updatedAt: now, weather: write.weather
        )
        stored[id, default: Stored(entry: entry)].entry = entry
        stored[id]!.deleted = false
        return (201, entry)
    }

    private func delete(_ id: String) -> DiaryTombstoneJSON? {
        guard var existing = stored[id], !existing.deleted else { return nil }
        let now = tick()
        existing.versions.insert(Self.version(existing.entry, replacedAt: now, reason: "deleted"), at: 0)
        existing.deleted = true
        existing.entry.updatedAt = now
        stored[id] = existing
        return DiaryTombstoneJSON(id: id, updatedAt: now)
    }

    private func page(_ query: [String: String]) -> (Int, Data) {
        let limit = Int(query["limit"] ?? "20") ?? 20
        let offset = Int(query["offset"] ?? "0") ?? 0
        let live = stored.values.filter { !$0.deleted }.map(\.entry).sorted(by: Self.newestFirst)
        return (200, Self.json(DiaryPageJSON(entries: Array(live.dropFirst(offset).prefix(limit)), total: live.count)))
    }

    private func changes(_ query: [String: String]) -> (Int, Data) {
        guard let since = query["since"].flatMap(DiaryTimestamp.milliseconds(from:)) else { return (400, Self.errorBody("since")) }
        let limit = Int(query["limit"] ?? "100") ?? 100
        let changed = stored.values.filter { DiaryTimestamp.milliseconds(from: $0.entry.updatedAt)! > since }
            .sorted { DiaryTimestamp.milliseconds(from: $0.entry.updatedAt)! < DiaryTimestamp.milliseconds(from: $1.entry.updatedAt)! }
        let page = changed.prefix(limit).map { $0.deleted ? DiaryChangeJSON(tombstoneID: $0.entry.id, updatedAt: $0.entry.updatedAt) : DiaryChangeJSON(entry: $0.entry) }
        let hasMore = changed.count > limit
        let now = hasMore ? page.last!.updatedAt : DiaryTimestamp.string(fromMilliseconds: clock)
        return (200, Self.json(DiaryChangesJSON(changes: Array(page), now: now, hasMore: hasMore)))
    }

    // MARK: Helpers

    static func key(_ id: UUID) -> String { id.uuidString.lowercased() }

    private static func version(_ entry: DiaryEntryJSON, replacedAt: String, reason: String) -> DiaryVersionJSON {
        DiaryVersionJSON(
            title: entry.title, body: entry.body, createdAt: entry.createdAt, weather: entry.weather, updatedAt: entry.updatedAt,
            replacedAt: replacedAt, reason: reason
        )
    }

    private static func newestFirst(_ a: DiaryEntryJSON, _ b: DiaryEntryJSON) -> Bool {
        let (x, y) = (DiaryTimestamp.milliseconds(from: a.createdAt)!, DiaryTimestamp.milliseconds(from: b.createdAt)!)
        return x != y ? x > y : a.id > b.id
    }

    private static func json<Value: Encodable>(_ value: Value) -> Data {
        try! JSONEncoder().encode(value)
    }

    private static func errorBody(_ message: String) -> Data {
        json(DiaryErrorJSON(message: message))
    }

    static func query(_ request: URLRequest) -> [String: String] {
        let items = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.compactMap { item in item.value.map { (item.name, $0) } }, uniquingKeysWith: { $1 })
    }
}
