import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutWire

/// Every call of Sprout's Diary API (`docs/diary-api.md`), answering with the wire shapes of `SproutWire`.
///
/// Every call needs the account's Bearer token: use `Session.diary`, or any `APIClient` whose token provider
/// supplies it. Every failure is a `SproutError` sorted by the Diary's rules (the server's `{"message"}` is in `serverMessage`).
public struct DiaryClient: Sendable {
    /// The client requests go through.
    public let client: APIClient

    /// Diary calls through `client`, with whatever token its provider supplies.
    public init(client: APIClient) {
        self.client = client
    }

    /// `PUT /api/diary/entries/{id}`: creates the entry (201, also for one brought back from a tombstone) or
    /// replaces it (200). Idempotent: sending the same write again changes nothing.
    /// - Returns: the entry as the server now has it, and whether the server created it (201).
    /// - Throws: `.invalidRequest` for a title or body the server does not take, `.tooLarge` over 256 KiB.
    public func put(id: UUID, write: DiaryEntryWriteJSON) async throws(SproutError) -> (entry: DiaryEntryJSON, created: Bool) {
        let request = Request<DiaryEntryJSON>(method: .put, path: Self.entryPath(id), body: .encodable(write))
        do {
            let (entry, status) = try await client.sendReadingStatus(request)
            return (entry, status == 201)
        } catch {
            throw SproutError(error, service: .diary, during: .save)
        }
    }

    /// `GET /api/diary/entries/{id}`: one live entry.
    /// - Throws: `.notFound` for an unknown or deleted entry.
    public func entry(id: UUID) async throws(SproutError) -> DiaryEntryJSON {
        try await send(Request(path: Self.entryPath(id)), during: .load)
    }

    /// `DELETE /api/diary/entries/{id}`: turns the entry into a tombstone, which other devices learn of through
    /// `changes(since:)`.
    /// - Parameter baseUpdatedAt: the server's `updatedAt` of the version the device is deleting; the server then
    ///   refuses (409) when the entry has moved on since, so another device's newer edit is not discarded
    ///   unseen. Nil deletes whatever the entry holds.
    /// - Throws: `.notFound` for an unknown or already deleted entry; `.unavailable` with status 409 when the
    ///   entry changed after `baseUpdatedAt`.
    @discardableResult
    public func delete(id: UUID, baseUpdatedAt: String? = nil) async throws(SproutError) -> DiaryTombstoneJSON {
        let query: [(String, String?)] = baseUpdatedAt.map { [("baseUpdatedAt", $0)] } ?? []
        return try await send(Request(method: .delete, path: Self.entryPath(id), query: query), during: .delete)
    }

    /// `GET /api/diary/entries?limit=&offset=`: a page of live entries, newest first by `createdAt` (ties: `id`
    /// descending), and how many there are in all.
    /// - Parameters:
    ///   - limit: 1…100 (the server answers 400 otherwise).
    ///   - offset: from 0.
    public func page(limit: Int = 20, offset: Int = 0) async throws(SproutError) -> DiaryPageJSON {
        try await send(Request(path: Self.entriesPath, query: [("limit", String(limit)), ("offset", String(offset))]), during: .load)
    }

    /// `GET /api/diary/entries?since=&limit=`: what changed strictly after `since`, oldest change first. Pass the
    /// answer's `now` back as the next `since`; while `hasMore`, ask again at once.
    /// - Parameters:
    ///   - since: a timestamp as the server wrote it; `DiaryClient.beginning` for everything.
    ///   - limit: at most this many changes, 1…100.
    public func changes(since: String, limit: Int = 100) async throws(SproutError) -> DiaryChangesJSON {
        try await send(Request(path: Self.entriesPath, query: [("since", since), ("limit", String(limit))]), during: .sync)
    }

    /// `GET /api/diary/entries/{id}/versions`: what the entry was before each write or deletion that replaced it,
    /// newest first (also for a deleted entry).
    /// - Throws: `.notFound` for an id the server never saw.
    public func versions(id: UUID) async throws(SproutError) -> [DiaryVersionJSON] {
        try await send(Request<DiaryVersionsJSON>(path: Self.entryPath(id) + "/versions"), during: .versions).versions
    }

    /// `GET /api/weather?lat=&lon=`: the current weather at a place, through the server's OpenWeather key.
    /// - Throws: `.unavailable` with status 503 when the server has no key, 502 when OpenWeather failed;
    ///   `.invalidRequest` for a latitude outside −90…90 or a longitude outside −180…180.
    public func weather(latitude: Double, longitude: Double) async throws(SproutError) -> DiaryWeatherJSON {
        let query = [("lat", Self.coordinate(latitude)), ("lon", Self.coordinate(longitude))]
        return try await send(Request(path: "/api/weather", query: query), during: .weather)
    }

    /// The `since` that asks for every change there ever was.
    public static let beginning = "1970-01-01T00:00:00Z"

    static let entriesPath = "/api/diary/entries"

    static func entryPath(_ id: UUID) -> String {
        entriesPath + "/" + id.uuidString.lowercased()
    }

    /// A plain decimal (`String(describing:)` writes `1e-05`, which the server does not read); six decimals are
    /// about 10 cm.
    static func coordinate(_ value: Double) -> String {
        String(format: "%.6f", value)
    }

    private func send<Response>(_ request: Request<Response>, during operation: SproutError.Operation) async throws(SproutError) -> Response {
        do {
            return try await client.send(request)
        } catch {
            throw SproutError(error, service: .diary, during: operation)
        }
    }
}
