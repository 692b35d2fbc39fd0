import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire

/// An in-memory Diary server on `FakeServer`, following `docs/diary-api.md`: idempotent `PUT`
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

    // Guarded by `server`'s lock; the routes run with it held.
    private var stored: [String: Stored] = [:]
    /// The account's clock, in milliseconds.
    private var clock: Int64 = 1_795_000_000_000
    private var weatherAnswer: (status: Int, weather: DiaryWeatherJSON?) = (200, DiaryFakeServer.clouds)
    private let server = FakeServer(notFound: { request in
        request.header("Authorization") == "Bearer test-token"
            ? .init(status: 404, body: DiaryFakeServer.errorBody("no route")) : .init(status: 401, body: DiaryFakeServer.errorBody("no token"))
    })

    static let base = FakeServer.base
    static let clouds = DiaryWeatherJSON(main: "Clouds", description: "few clouds", icon: "02n", tempC: 14.1)

    init() {
        server.route(nil, "/api/weather") { [unowned self] in self.signedIn($0, self.weatherRoute) }
        server.route(nil, "/api/diary/entries") { [unowned self] request in
            self.signedIn(request) { request.query["since"] != nil ? self.changes($0.query) : self.page($0.query) }
        }
        server.route(nil, "/api/diary/entries/:id") { [unowned self] in self.signedIn($0, self.entryRoute) }
        server.route(nil, "/api/diary/entries/:id/versions") { [unowned self] in self.signedIn($0, self.versionsRoute) }
        // Anything after an id but `versions` is read as the entry itself.
        server.route(nil, "/api/diary/entries/:id/:other") { [unowned self] in self.signedIn($0, self.entryRoute) }
    }

    var client: DiaryClient {
        DiaryClient(client: APIClient(baseURL: Self.base, transport: self, tokenProvider: { "test-token" }))
    }

    // MARK: Set-up and inspection

    /// The next requests meet `failures`, in order.
    func fail(_ failures: Failure...) {
        for failure in failures {
            switch failure {
            case .pass: server.failNext(.pass)
            case .offline: server.failNext(.offline)
            case .answerLost: server.failNext(.answerLost)
            case .status(let code): server.failNext(.answer(.init(status: code, body: Self.errorBody("injected failure \(code)"))))
            }
        }
    }

    /// `GET /api/weather` answers `status` (with `weather` when 200).
    func setWeather(status: Int, weather: DiaryWeatherJSON? = nil) { server.withLock { weatherAnswer = (status, weather) } }

    /// Answers are computed (the server acts) but not returned until `release()`.
    func hold() { server.hold() }

    func release() { server.release() }

    var requests: [URLRequest] { server.requests }

    /// `METHOD path` of every request, in order.
    var requestLines: [String] { server.requestLines }

    func requests(_ method: String) -> [URLRequest] { server.requests(method) }

    /// Waits (briefly) until `count` requests have arrived.
    func waitForRequests(_ count: Int) async throws { try await server.waitForRequests(count) }

    /// The live entries, newest first.
    var liveEntries: [DiaryEntryJSON] {
        server.withLock { stored.values.filter { !$0.deleted }.map(\.entry).sorted(by: Self.newestFirst) }
    }

    func entry(_ id: UUID) -> DiaryEntryJSON? {
        server.withLock { stored[Self.key(id)].flatMap { $0.deleted ? nil : $0.entry } }
    }

    func isTombstone(_ id: UUID) -> Bool { server.withLock { stored[Self.key(id)]?.deleted == true } }

    func versions(_ id: UUID) -> [DiaryVersionJSON] { server.withLock { stored[Self.key(id)]?.versions ?? [] } }

    /// Another device writes `id` (as a PUT without `baseUpdatedAt`).
    @discardableResult
    func write(_ id: UUID, title: String, body: String, createdAt: String? = nil) -> DiaryEntryJSON {
        server.withLock { put(Self.key(id), DiaryEntryWriteJSON(title: title, body: body, createdAt: createdAt)).1 }
    }

    /// Another device deletes `id`.
    func remove(_ id: UUID) {
        server.withLock { _ = delete(Self.key(id)) }
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { try await server.send(request) }

    // MARK: Routes (called with the lock held)

    private static let notAUUID = FakeServer.Answer(status: 400, body: errorBody("not a UUID"))

    /// 401 without the test token.
    private func signedIn(_ request: FakeRequest, _ handler: (FakeRequest) -> FakeServer.Answer) -> FakeServer.Answer {
        guard request.header("Authorization") == "Bearer test-token" else { return .init(status: 401, body: Self.errorBody("no token")) }
        return handler(request)
    }

    private func entryID(_ request: FakeRequest) -> String? {
        request.parameters["id"].flatMap(UUID.init(uuidString:)).map(Self.key)
    }

    private func weatherRoute(_ request: FakeRequest) -> FakeServer.Answer {
        let query = request.query
        guard let lat = query["lat"].flatMap(Double.init), let lon = query["lon"].flatMap(Double.init), abs(lat) <= 90, abs(lon) <= 180 else {
            return .init(status: 400, body: Self.errorBody("lat and lon"))
        }
        if weatherAnswer.status == 200, let weather = weatherAnswer.weather { return .json(weather) }
        return .init(status: weatherAnswer.status, body: Self.errorBody("weather unavailable"))
    }

    private func versionsRoute(_ request: FakeRequest) -> FakeServer.Answer {
        guard let id = entryID(request) else { return Self.notAUUID }
        guard let entry = stored[id] else { return .init(status: 404, body: Self.errorBody("never seen")) }
        return .json(DiaryVersionsJSON(versions: entry.versions))
    }

    private func entryRoute(_ request: FakeRequest) -> FakeServer.Answer {
        guard let id = entryID(request) else { return Self.notAUUID }
        switch request.method {
        case "PUT":
            guard let write = request.decode(DiaryEntryWriteJSON.self) else { return .init(status: 400, body: Self.errorBody("bad body")) }
            guard !write.title.isEmpty, !write.title.allSatisfy(\.isWhitespace), !write.title.contains(where: \.isNewline), write.title.count <= 1000 else {
                return .init(status: 400, body: Self.errorBody("title"))
            }
            let (status, entry) = put(id, write)
            return .json(entry, status: status)
        case "GET":
            guard let entry = stored[id], !entry.deleted else { return .init(status: 404, body: Self.errorBody("no entry")) }
            return .json(entry.entry)
        case "DELETE":
            if let base = request.query["baseUpdatedAt"], let entry = stored[id], !entry.deleted, entry.entry.updatedAt != base {
                return .init(status: 409, body: Self.errorBody("moved on since baseUpdatedAt"))
            }
            guard let tombstone = delete(id) else { return .init(status: 404, body: Self.errorBody("no entry")) }
            return .json(tombstone)
        default:
            return .init(status: 405, body: Self.errorBody("method"))
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

    private func page(_ query: [String: String]) -> FakeServer.Answer {
        let limit = Int(query["limit"] ?? "20") ?? 20
        let offset = Int(query["offset"] ?? "0") ?? 0
        let live = stored.values.filter { !$0.deleted }.map(\.entry).sorted(by: Self.newestFirst)
        return .json(DiaryPageJSON(entries: Array(live.dropFirst(offset).prefix(limit)), total: live.count))
    }

    private func changes(_ query: [String: String]) -> FakeServer.Answer {
        guard let since = query["since"].flatMap(DiaryTimestamp.milliseconds(from:)) else { return .init(status: 400, body: Self.errorBody("since")) }
        let limit = Int(query["limit"] ?? "100") ?? 100
        let changed = stored.values.filter { DiaryTimestamp.milliseconds(from: $0.entry.updatedAt)! > since }
            .sorted { DiaryTimestamp.milliseconds(from: $0.entry.updatedAt)! < DiaryTimestamp.milliseconds(from: $1.entry.updatedAt)! }
        let page = changed.prefix(limit).map { $0.deleted ? DiaryChangeJSON(tombstoneID: $0.entry.id, updatedAt: $0.entry.updatedAt) : DiaryChangeJSON(entry: $0.entry) }
        let hasMore = changed.count > limit
        let now = hasMore ? page.last!.updatedAt : DiaryTimestamp.string(fromMilliseconds: clock)
        return .json(DiaryChangesJSON(changes: Array(page), now: now, hasMore: hasMore))
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

    static func errorBody(_ message: String) -> Data {
        json(DiaryErrorJSON(message: message))
    }

    static func query(_ request: URLRequest) -> [String: String] {
        let items = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.compactMap { item in item.value.map { (item.name, $0) } }, uniquingKeysWith: { $1 })
    }
}
