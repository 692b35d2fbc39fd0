import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// The Diary part of the kit against a real Sprout server (SQLite, or PostgreSQL when `SPROUT_TEST_DATABASE_URL`
/// is set): the client's calls, and two devices on one account — one offline for a while, editing and deleting,
/// while the other edits the same entries — that end with identical diaries and no lost edit.
@MainActor
@Suite struct DiaryLiveTests {
    /// A device: its own database and sync engine, signed in to `session`'s account.
    private func device(_ session: Session, weather: DiaryWeatherSource? = nil) throws -> DiaryStore {
        let database = try DiaryDatabase()
        let engine = DiarySyncEngine(database: database, client: session.diary, sleep: { _ in })
        return DiaryStore(database: database, weather: weather, syncEngine: engine)
    }

    private func synced(_ store: DiaryStore) async throws {
        await store.sync()
        if let error = store.lastSyncError { throw error }
    }

    /// What two devices must agree on.
    private func contents(_ store: DiaryStore) -> [String] {
        store.entries.map { "\($0.id) \($0.title)|\($0.body)|\(DiaryTimestamp.string(from: $0.createdAt))|\(String(describing: $0.weather))" }
    }

    @Test func theClientWritesReadsPagesAndDeletes() async throws {
        try await withLiveServer { base in
            let session = try await CommunityLiveTests.signedUp("diarist", base: base)
            let client = session.diary
            let id = UUID()
            let (entry, created) = try await client.put(id: id, write: DiaryEntryWriteJSON(title: "첫 일기", body: "본문\n둘째 줄", createdAt: "2020-12-22T15:35:33.000Z"))
            #expect(created && entry.id == id.uuidString.lowercased() && entry.createdAt == "2020-12-22T15:35:33.000Z" && entry.weather == nil)
            let (same, createdAgain) = try await client.put(id: id, write: DiaryEntryWriteJSON(title: "첫 일기", body: "본문\n둘째 줄"))
            #expect(!createdAgain && same.updatedAt == entry.updatedAt, "an unchanged write leaves the entry as it was")
            let (edited, _) = try await client.put(id: id, write: DiaryEntryWriteJSON(title: "고친 일기", body: "", baseUpdatedAt: entry.updatedAt))
            #expect(edited.createdAt == entry.createdAt && edited.updatedAt > entry.updatedAt)
            #expect(try await client.entry(id: id).title == "고친 일기")

            for number in 1...3 {
                _ = try await client.put(id: UUID(), write: DiaryEntryWriteJSON(title: "일기 \(number)", body: "", createdAt: "2026-11-2\(number)T00:00:00.000Z"))
            }
            let page = try await client.page(limit: 2, offset: 0)
            #expect(page.total == 4 && page.entries.map(\.title) == ["일기 3", "일기 2"])
            #expect(try await client.page(limit: 2, offset: 2).entries.map(\.title) == ["일기 1", "고친 일기"])

            let changes = try await client.changes(since: DiaryClient.beginning, limit: 3)
            #expect(changes.changes.count == 3 && changes.hasMore)
            let rest = try await client.changes(since: changes.now)
            #expect(rest.changes.count == 1 && !rest.hasMore)

            try await client.delete(id: id)
            await #expect { _ = try await client.entry(id: id) } throws: { ($0 as? SproutError)?.kind == .notFound }
            await #expect { try await client.delete(id: id) } throws: { ($0 as? SproutError)?.kind == .notFound }
            let versions = try await client.versions(id: id)
            #expect(versions.map(\.reason) == ["deleted", "replaced"] && versions.map(\.title) == ["고친 일기", "첫 일기"])
            await #expect { _ = try await client.versions(id: UUID()) } throws: { ($0 as? SproutError)?.kind == .notFound }
            let tombstone = try await client.changes(since: rest.now)
            #expect(tombstone.changes.map(\.deleted) == [true] && tombstone.changes.first?.id == id.uuidString.lowercased())

            // Another account does not see the entries.
            let stranger = try await CommunityLiveTests.signedUp("stranger", base: base)
            #expect(try await stranger.diary.page().total == 0)
        }
    }

    @Test func twoDevicesEndIdenticalAndNoEditIsLost() async throws {
        try await withLiveServer { base in
            let phoneSession = try await CommunityLiveTests.signedUp("diarist", base: base)
            let tabletSession = CommunityLiveTests.session(base)
            #expect(await tabletSession.logIn(identifier: "diarist@example.com", password: "password-diarist"))
            let phone = try device(phoneSession)
            let tablet = try device(tabletSession)

            // The phone writes three entries and syncs; the tablet gets them.
            let shared = try #require(phone.create(text: "같이 고칠 일기\n처음", createdAt: Date(timeIntervalSince1970: 1_795_392_000)))
            let doomed = try #require(phone.create(text: "태블릿이 지울 일기\n처음", createdAt: Date(timeIntervalSince1970: 1_795_392_001)))
            let revived = try #require(phone.create(text: "휴대폰이 고칠 일기\n처음", createdAt: Date(timeIntervalSince1970: 1_795_392_002)))
            try await synced(phone)
            try await synced(tablet)
            #expect(contents(tablet) == contents(phone) && tablet.entries.count == 3)

            // The tablet goes offline: it edits `shared`, deletes `revived`, and writes a new entry.
            let tabletShared = try #require(tablet.entry(id: shared.id))
            let tabletEditor = tablet.makeEditor(for: tabletShared)
            tabletEditor.textChanged("같이 고칠 일기\n태블릿에서 고침")
            tabletEditor.leaving()
            #expect(tablet.delete(id: revived.id))
            let offline = try #require(tablet.create(text: "오프라인에서 쓴 일기"))

            // Meanwhile the phone edits `shared` and `doomed` and syncs.
            phone.update(id: shared.id, text: "같이 고칠 일기\n휴대폰에서 고침")
            phone.update(id: doomed.id, text: "태블릿이 지울 일기\n휴대폰에서 고침")
            try await synced(phone)

            // The tablet comes back: its edit of `shared` is the last write and wins; the phone's is kept. Its
            // deletion of `doomed` names the version it saw, which the phone's edit replaced: the server refuses it
            // (409) and the entry comes back to the tablet with the phone's edit, rather than that edit being
            // deleted unseen (security review, point 8).
            tablet.delete(id: doomed.id)
            try await synced(tablet)
            #expect(tablet.lastSyncReport?.pushed == 2 && tablet.lastSyncReport?.deleted == 1 && tablet.lastSyncReport?.withdrawn == 1)

            // The phone, not knowing `revived` was deleted, edits it offline and syncs: it comes back (201).
            phone.update(id: revived.id, text: "휴대폰이 고칠 일기\n지워진 줄 모르고 고침")
            try await synced(phone)
            #expect(phone.lastSyncReport?.created == 1)
            try await synced(tablet)
            try await synced(phone)

            #expect(contents(phone) == contents(tablet))
            #expect(phone.entries.map(\.title) == ["오프라인에서 쓴 일기", "휴대폰이 고칠 일기", "태블릿이 지울 일기", "같이 고칠 일기"])
            #expect(phone.entry(id: shared.id)?.body == "태블릿에서 고침" && phone.entry(id: revived.id)?.body == "지워진 줄 모르고 고침")
            #expect(phone.entry(id: offline.id) != nil && tablet.entry(id: doomed.id)?.body == "휴대폰에서 고침")
            #expect(phone.entries.allSatisfy { !$0.hasUnpushedChanges } && tablet.entries.allSatisfy { !$0.hasUnpushedChanges })

            // Nothing lost: the losers' texts are in the versions.
            let sharedVersions = try await phoneSession.diary.versions(id: shared.id)
            #expect(sharedVersions.contains { $0.body == "휴대폰에서 고침" && $0.reason == "conflict" })
            let doomedVersions = try await phoneSession.diary.versions(id: doomed.id)
            #expect(doomedVersions.first.map { [$0.body, $0.reason] } == ["처음", "replaced"])
            let revivedVersions = try await tabletSession.diary.versions(id: revived.id)
            #expect(revivedVersions.first?.reason == "deleted")

            // The server agrees with both.
            let page = try await phoneSession.diary.page(limit: 100)
            #expect(page.entries.map(\.id) == phone.entries.map { $0.id.uuidString.lowercased() } && page.total == 4)
        }
    }

    @Test func aNewEntryIsKeptWhenTheServerHasNoWeather() async throws {
        try await withLiveServer { base in
            let session = try await CommunityLiveTests.signedUp("walker", base: base)
            let locator = DiaryTest.Locator()
            let store = try device(session, weather: DiaryWeatherSource(client: session.diary, location: locator.provider))
            let editor = store.makeEditor()
            editor.textChanged("산책\n맑음?")
            editor.leaving()
            await store.weatherRequestsFinished()
            #expect(locator.calls == 1)
            let entry = try #require(store.entry(id: editor.id))
            // The test server has weather turned off: 503, and the entry is saved without weather.
            guard case .failed(let error)? = store.lastWeatherOutcome else {
                Issue.record("expected the weather to fail, got \(String(describing: store.lastWeatherOutcome))")
                return
            }
            #expect(error.kind == .unavailable && error.statusCode == 503 && entry.weather == nil && entry.title == "산책")
            try await synced(store)
            let onServer = try await session.diary.entry(id: entry.id)
            #expect(onServer.title == "산책" && onServer.body == "맑음?" && onServer.weather == entry.weather)
            await #expect { _ = try await session.diary.weather(latitude: 91, longitude: 0) } throws: { ($0 as? SproutError)?.kind == .invalidRequest }
        }
    }

    @Test func aSyncCutOffAfterItsWriteReachedTheServerIsFinishedAfterARestart() async throws {
        try await withLiveServer { base in
            let transport = AnswerLosingTransport()
            let session = Session(baseURL: base, transport: transport, tokenStore: InMemoryTokenStore())
            #expect(await session.signUp(username: "crasher", email: "crasher@example.com", password: "password-crasher"))
            let file = DiaryTest.temporaryFile()
            defer { try? FileManager.default.removeItem(at: file.directory) }

            var ids: [UUID] = []
            do {
                let database = try DiaryDatabase(path: file.path)
                let store = DiaryStore(database: database, syncEngine: DiarySyncEngine(database: database, client: session.diary))
                ids = (1...2).compactMap { store.create(text: "일기 \($0)\n본문", createdAt: DiaryTest.date(Double($0)))?.id }
                transport.loseNextAnswer(to: "PUT")
                await store.sync()
                #expect(store.lastSyncError?.kind == .offline)
            }
            #expect(try await session.diary.page().entries.map(\.title) == ["일기 1"], "the write whose answer was lost arrived")

            let database = try DiaryDatabase(path: file.path)
            let relaunched = DiaryStore(database: database, syncEngine: DiarySyncEngine(database: database, client: session.diary))
            try await synced(relaunched)
            #expect(relaunched.lastSyncReport?.pushed == 2 && relaunched.lastSyncReport?.created == 1)
            let page = try await session.diary.page()
            #expect(page.total == 2 && page.entries.map(\.title) == ["일기 2", "일기 1"])
            #expect(try await session.diary.versions(id: ids[0]).isEmpty, "the replayed write changed nothing")
            #expect(try relaunched.entries.map(\.title) == ["일기 2", "일기 1"] && relaunched.database.outbox().isEmpty)
        }
    }
}

/// Passes requests to the server through URLSession; told to, lets the server act on the next request of a method
/// and then throws as if the connection dropped before the answer came.
private final class AnswerLosingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var method: String?
    private let inner = URLSessionTransport()

    func loseNextAnswer(to method: String) { lock.withLock { self.method = method } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let answer = try await inner.send(request)
        let lose = lock.withLock {
            guard method == request.httpMethod else { return false }
            method = nil
            return true
        }
        if lose { throw URLError(.networkConnectionLost) }
        return answer
    }
}
