import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import SproutWire
import Testing

/// `DiarySyncEngine` against the fake server: push then pull, conflicts (no edit is ever lost), an edit made while
/// its push is in flight, tombstones both ways, backoff, and a restart in the middle of a sync.
@MainActor
@Suite struct DiarySyncTests {
    /// A store with a sync engine over `database` and `server`.
    private func device(_ server: DiaryFakeServer, database: DiaryDatabase? = nil, pageSize: Int = 100, sleeper: DiaryTest.Sleeper = DiaryTest.Sleeper()) throws -> DiaryStore {
        let database = try database ?? DiaryDatabase()
        let engine = DiarySyncEngine(database: database, client: server.client, pageSize: pageSize, sleep: sleeper.sleep)
        return DiaryStore(database: database, syncEngine: engine)
    }

    private func synced(_ store: DiaryStore) async throws {
        await store.sync()
        if let error = store.lastSyncError { throw error }
    }

    @Test func aSyncPushesLocalEntriesThenPullsTheOthers() async throws {
        let server = DiaryFakeServer()
        let elsewhere = UUID()
        server.write(elsewhere, title: "다른 기기의 일기", body: "본문", createdAt: "2026-11-22T09:00:00.000Z")
        let store = try device(server)
        let mine = try #require(store.create(text: "내 일기\n본문", createdAt: DiaryTest.date(0)))
        try await synced(store)

        #expect(server.liveEntries.count == 2 && server.entry(mine.id)?.title == "내 일기")
        #expect(server.entry(mine.id)?.createdAt == DiaryTimestamp.string(from: DiaryTest.date(0)))
        #expect(store.entries.map(\.title) == ["내 일기", "다른 기기의 일기"])
        #expect(try store.entries.allSatisfy { !$0.hasUnpushedChanges } && store.database.outbox().isEmpty)
        #expect(store.lastSyncReport?.pushed == 1 && store.lastSyncReport?.created == 1 && store.lastSyncReport?.applied == 1)
        #expect(try store.database.syncCursor() != nil)
        let put = try #require(server.requests("PUT").first?.httpBody)
        #expect(try JSONDecoder().decode(DiaryEntryWriteJSON.self, from: put).baseUpdatedAt == nil, "a new entry has no base")

        // Nothing changed: the next sync sends no write and applies nothing.
        try await synced(store)
        var quiet = DiarySyncReport()
        quiet.pages = 1
        #expect(server.requests("PUT").count == 1 && store.lastSyncReport == quiet)
    }

    @Test func anEditIsPushedFromTheVersionItStartedFrom() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "제목\n첫 글"))
        try await synced(store)
        let base = try #require(server.entry(entry.id)?.updatedAt)
        store.update(id: entry.id, text: "제목\n고친 글")
        #expect(try store.database.outbox().map(\.baseUpdatedAt) == [base])
        try await synced(store)
        #expect(server.entry(entry.id)?.body == "고친 글")
        #expect(server.versions(entry.id).map(\.reason) == ["replaced"] && server.versions(entry.id).first?.body == "첫 글")
    }

    @Test func aLocalEditWinsOverARemoteOneAndTheServerKeepsTheLoser() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "제목\n처음"))
        try await synced(store)

        // The other device writes; this one edits offline, then syncs.
        server.write(entry.id, title: "제목", body: "다른 기기에서 고침")
        store.update(id: entry.id, text: "제목\n이 기기에서 고침")
        try await synced(store)

        #expect(server.entry(entry.id)?.body == "이 기기에서 고침" && store.entry(id: entry.id)?.body == "이 기기에서 고침")
        let versions = server.versions(entry.id)
        #expect(versions.first?.body == "다른 기기에서 고침" && versions.first?.reason == "conflict")
        #expect(versions.map(\.body).contains("처음"))
    }

    @Test func aPulledChangeNeverOverwritesAnUnpushedEdit() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "제목\n처음"))
        try await synced(store)

        // The pull's answer is made with the remote edit in it, then held while this device edits.
        server.write(entry.id, title: "제목", body: "원격 수정")
        let before = server.requests.count
        server.hold()
        let sync = Task { await store.sync() }
        try await server.waitForRequests(before + 1)
        #expect(server.requestLines.last == "GET /api/diary/entries")
        store.update(id: entry.id, text: "제목\n로컬 수정")
        server.release()
        await sync.value
        #expect(store.lastSyncError == nil && store.lastSyncReport?.applied == 0)
        #expect(store.entry(id: entry.id)?.body == "로컬 수정" && store.entry(id: entry.id)?.hasUnpushedChanges == true)

        // The next sync pushes it; the remote edit is kept on the server as the conflict it lost.
        try await synced(store)
        #expect(server.entry(entry.id)?.body == "로컬 수정" && store.entry(id: entry.id)?.hasUnpushedChanges == false)
        #expect(server.versions(entry.id).first.map { [$0.body, $0.reason] } == ["원격 수정", "conflict"])
    }

    @Test func aPulledTombstoneKeepsAnEntryEditedDuringThePullAndItsPushBringsItBack() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "제목\n처음"))
        try await synced(store)

        server.remove(entry.id)
        let before = server.requests.count
        server.hold()
        let sync = Task { await store.sync() }
        try await server.waitForRequests(before + 1)
        store.update(id: entry.id, text: "제목\n지워지는 동안 고침")
        server.release()
        await sync.value
        #expect(store.lastSyncError == nil && store.entry(id: entry.id)?.body == "지워지는 동안 고침")

        try await synced(store)
        #expect(store.lastSyncReport?.created == 1 && server.entry(entry.id)?.body == "지워지는 동안 고침")
        #expect(server.versions(entry.id).first.map { [$0.body, $0.reason] } == ["처음", "deleted"])
    }

    /// A store whose weather waits for `gate`, then answers clouds.
    private func deviceWithLateWeather(_ server: DiaryFakeServer, gate: AnswerGate) throws -> DiaryStore {
        let database = try DiaryDatabase()
        let weather = DiaryWeatherSource(location: { DiaryLocation(latitude: 37.5, longitude: 127) }) { _ in
            await gate.passThrough()
            return DiaryFakeServer.clouds
        }
        return DiaryStore(database: database, weather: weather, syncEngine: DiarySyncEngine(database: database, client: server.client))
    }

    @Test func weatherArrivingLateNeverUndoesAnotherDevicesEdit() async throws {
        let server = DiaryFakeServer()
        let gate = AnswerGate()
        gate.hold()
        let store = try deviceWithLateWeather(server, gate: gate)
        let entry = try #require(store.create(text: "제목\n처음"))
        try await synced(store)
        #expect(server.entry(entry.id)?.weather == nil)

        server.write(entry.id, title: "제목", body: "다른 기기에서 고침")
        gate.release()
        await store.weatherRequestsFinished()
        #expect(store.entry(id: entry.id)?.weather == DiaryFakeServer.clouds && store.entry(id: entry.id)?.body == "처음")
        #expect(try store.database.outbox().map(\.isWeatherOnly) == [true])

        try await synced(store)
        #expect(server.entry(entry.id)?.body == "다른 기기에서 고침" && server.entry(entry.id)?.weather == DiaryFakeServer.clouds)
        #expect(store.entry(id: entry.id)?.body == "다른 기기에서 고침" && store.entry(id: entry.id)?.weather == DiaryFakeServer.clouds)
        #expect(server.versions(entry.id).first.map { [$0.body, $0.reason] } == ["다른 기기에서 고침", "replaced"])
        #expect(try store.database.outbox().isEmpty)
    }

    @Test func weatherArrivingLateForAnEntryDeletedElsewhereDoesNotBringItBack() async throws {
        let server = DiaryFakeServer()
        let gate = AnswerGate()
        gate.hold()
        let store = try deviceWithLateWeather(server, gate: gate)
        let entry = try #require(store.create(text: "제목"))
        try await synced(store)
        server.remove(entry.id)
        gate.release()
        await store.weatherRequestsFinished()
        try await synced(store)
        #expect(store.entries.isEmpty && server.isTombstone(entry.id) && server.requests("PUT").count == 1)
    }

    @Test func weatherArrivingLateIsPushedOntoAnUnchangedEntry() async throws {
        let server = DiaryFakeServer()
        let gate = AnswerGate()
        gate.hold()
        let store = try deviceWithLateWeather(server, gate: gate)
        let entry = try #require(store.create(text: "제목\n본문"))
        try await synced(store)
        gate.release()
        await store.weatherRequestsFinished()
        try await synced(store)
        #expect(server.entry(entry.id)?.weather == DiaryFakeServer.clouds && server.entry(entry.id)?.body == "본문")
        #expect(server.versions(entry.id).map(\.reason) == ["replaced"] && store.entries.allSatisfy { !$0.hasUnpushedChanges })
    }

    @Test func anEditMadeWhileItsPushIsInFlightStaysDirtyAndIsPushedNext() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "제목\n하나"))
        server.hold()
        let sync = Task { await store.sync() }
        try await server.waitForRequests(1)
        #expect(server.requestLines == ["PUT /api/diary/entries/\(entry.id.uuidString.lowercased())"])
        store.update(id: entry.id, text: "제목\n둘")
        server.release()
        await sync.value

        #expect(store.lastSyncError == nil)
        let puts = try server.requests("PUT").map { try JSONDecoder().decode(DiaryEntryWriteJSON.self, from: $0.httpBody ?? Data()) }
        #expect(puts.map(\.body) == ["하나", "둘"])
        #expect(puts[1].baseUpdatedAt != nil && puts[1].baseUpdatedAt == server.versions(entry.id).first?.updatedAt)
        #expect(server.versions(entry.id).map(\.reason) == ["replaced"], "the second write started from the first")
        #expect(server.entry(entry.id)?.body == "둘" && store.entry(id: entry.id)?.body == "둘" && store.entry(id: entry.id)?.hasUnpushedChanges == false)
    }

    @Test func anEntryDeletedWhileThePushIsUnderWayIsDeletedOnTheServerToo() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let first = try #require(store.create(text: "먼저 올라갈 일기", createdAt: DiaryTest.date(0)))
        let second = try #require(store.create(text: "올라가는 사이 지운 일기", createdAt: DiaryTest.date(1)))
        server.hold()
        let sync = Task { await store.sync() }
        try await server.waitForRequests(1)
        #expect(store.delete(id: second.id))  // not sent yet: dropped on the device…
        server.release()
        await sync.value
        // …but the engine had already read it from the outbox and wrote it: so it deletes it there as well.
        #expect(store.lastSyncError == nil && store.entries.map(\.id) == [first.id])
        #expect(server.liveEntries.map(\.id) == [first.id.uuidString.lowercased()])
        #expect(try store.database.outbox().isEmpty)
    }

    @Test func aRemoteDeletionDeletesAnEntryWithoutLocalEdits() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "곧 원격에서 지워짐"))
        try await synced(store)
        server.remove(entry.id)
        try await synced(store)
        #expect(try store.entries.isEmpty && store.database.outbox().isEmpty && store.lastSyncReport?.applied == 1)
    }

    @Test func aRemoteDeletionOfAnEntryWithALocalEditBringsItBack() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "제목\n처음"))
        try await synced(store)
        server.remove(entry.id)
        store.update(id: entry.id, text: "제목\n지워진 줄 모르고 고침")
        try await synced(store)
        #expect(store.lastSyncReport?.created == 1, "the server answers 201 for an entry brought back")
        #expect(server.entry(entry.id)?.body == "지워진 줄 모르고 고침" && store.entry(id: entry.id)?.body == "지워진 줄 모르고 고침")
        #expect(server.versions(entry.id).first?.reason == "deleted")
    }

    @Test func aLocalDeletionIsSentOnceAndTheTombstoneGoes() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let pushed = try #require(store.create(text: "서버에 있는 일기"))
        try await synced(store)
        let local = try #require(store.create(text: "서버에 없는 일기"))
        store.delete(id: pushed.id)
        store.delete(id: local.id)
        #expect(store.entries.isEmpty)
        #expect(try store.database.outbox().map(\.id) == [pushed.id] && store.database.outbox().allSatisfy(\.isDeletion))
        try await synced(store)
        #expect(server.requestLines.filter { $0.hasPrefix("DELETE") } == ["DELETE /api/diary/entries/\(pushed.id.uuidString.lowercased())"])
        #expect(!server.requestLines.contains { $0.contains(local.id.uuidString.lowercased()) }, "an entry never pushed is just dropped")
        #expect(try server.isTombstone(pushed.id) && store.database.outbox().isEmpty)
    }

    /// Security review, point 8: a device that deleted an entry it had not seen the newest edit of discarded that
    /// edit. The DELETE now names the version deleted; the server refuses it (409), and the engine reads the entry
    /// and brings it back with the other device's edit instead.
    @Test func aDeletionOfAnEntryEditedElsewhereSinceBringsTheEditBackInsteadOfDiscardingIt() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "처음 쓴 일기"))
        try await synced(store)
        let seen = try #require(server.entry(entry.id)).updatedAt
        server.write(entry.id, title: "다른 기기에서 고친 일기", body: "")
        store.delete(id: entry.id)
        try await synced(store)
        let delete = try #require(server.requests.first { $0.httpMethod == "DELETE" })
        let base = delete.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "baseUpdatedAt" }?.value }
        #expect(base == seen)
        #expect(store.lastSyncReport?.withdrawn == 1 && store.lastSyncReport?.deleted == 0)
        #expect(store.entries.map(\.title) == ["다른 기기에서 고친 일기"])
        #expect(try server.isTombstone(entry.id) == false && store.database.outbox().isEmpty)
        // Deleting it again, now that the device has seen the edit, deletes it.
        store.delete(id: entry.id)
        try await synced(store)
        #expect(server.isTombstone(entry.id) && store.lastSyncReport?.deleted == 1)
    }

    @Test func aDeletionMeetingARemoteDeletionIsDone() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let entry = try #require(store.create(text: "둘 다 지움"))
        try await synced(store)
        server.remove(entry.id)
        store.delete(id: entry.id)
        try await synced(store)
        #expect(try store.lastSyncReport?.deleted == 1 && store.database.outbox().isEmpty && server.isTombstone(entry.id))
    }

    @Test func pullingFollowsHasMoreAndKeepsTheCursor() async throws {
        let server = DiaryFakeServer()
        for number in 1...5 { server.write(UUID(), title: "원격 \(number)", body: "") }
        let store = try device(server, pageSize: 2)
        try await synced(store)
        #expect(store.entries.count == 5 && store.lastSyncReport?.pages == 3)
        let cursor = try #require(try store.database.syncCursor())
        server.write(UUID(), title: "원격 6", body: "")
        try await synced(store)
        #expect(store.entries.count == 6 && store.lastSyncReport?.applied == 1)
        let queries = server.requests("GET").map { DiaryFakeServer.query($0)["since"] }
        #expect(queries.first == "1970-01-01T00:00:00Z" && queries.last == cursor)
    }

    @Test func theServerRefusingAnEntryKeepsItUntilItIsEdited() async throws {
        let server = DiaryFakeServer()
        let store = try device(server)
        let long = try #require(store.create(text: String(repeating: "가", count: 1001) + "\n본문"))
        let fine = try #require(store.create(text: "괜찮은 일기"))
        try await synced(store)
        #expect(store.lastSyncReport?.refused == 1 && server.entry(fine.id) != nil && server.entry(long.id) == nil)
        #expect(store.entry(id: long.id)?.pushRefusal == "title" && store.entry(id: long.id)?.hasUnpushedChanges == true)

        try await synced(store)
        #expect(server.requests("PUT").count == 2, "not sent again unchanged")

        store.update(id: long.id, text: "짧게 고친 제목\n본문")
        try await synced(store)
        #expect(server.entry(long.id)?.title == "짧게 고친 제목" && store.entry(id: long.id)?.pushRefusal == nil)
    }

    @Test func failuresAreRetriedWithExponentialBackoffResetBySuccess() async throws {
        let server = DiaryFakeServer()
        let sleeper = DiaryTest.Sleeper()
        let database = try DiaryDatabase()
        let engine = DiarySyncEngine(database: database, client: server.client, sleep: sleeper.sleep)
        let store = DiaryStore(database: database, syncEngine: engine)
        store.create(text: "재시도")
        server.fail(.offline, .status(503), .offline, .status(500), .offline)
        let report = try await engine.syncRetrying()
        #expect(report.pushed == 1 && server.liveEntries.count == 1)
        #expect(sleeper.waits == [.seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16)])
        let (failures, delay) = (await engine.consecutiveFailures, await engine.nextRetryDelay)
        #expect(failures == 0 && delay == .zero)

        // After a success the next failure waits 1 s again.
        server.fail(.offline)
        try await engine.syncRetrying()
        #expect(sleeper.waits.last == .seconds(1))

        // The wait is capped.
        #expect(DiaryBackoff().delay(afterFailures: 7) == .seconds(60) && DiaryBackoff().delay(afterFailures: 100) == .seconds(60))
        #expect(DiaryBackoff(initial: .milliseconds(500), maximum: .seconds(3)).delay(afterFailures: 3) == .seconds(2))
    }

    @Test func aRefusalThatWaitingCannotCureIsNotRetried() async throws {
        let server = DiaryFakeServer()
        let sleeper = DiaryTest.Sleeper()
        let database = try DiaryDatabase()
        let engine = DiarySyncEngine(database: database, client: server.client, sleep: sleeper.sleep)
        server.fail(.status(401))
        await #expect { try await engine.syncRetrying() } throws: { ($0 as? SproutError)?.kind == .unauthorized }
        let afterRefusal = await engine.consecutiveFailures
        #expect(sleeper.waits.isEmpty && afterRefusal == 0)

        server.fail(.offline, .offline, .offline)
        await #expect { try await engine.syncRetrying(maxAttempts: 3) } throws: { ($0 as? SproutError)?.kind == .offline }
        let afterGivingUp = await engine.consecutiveFailures
        #expect(sleeper.waits == [.seconds(1), .seconds(2)] && afterGivingUp == 3)
    }

    @Test func aRestartInTheMiddleOfASyncFinishesWithoutDuplicatesOrLoss() async throws {
        let file = DiaryTest.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.directory) }
        let server = DiaryFakeServer()
        let remote = UUID()
        server.write(remote, title: "원격 일기", body: "")

        var ids: [UUID] = []
        let deleted: UUID
        do {
            let store = try device(server, database: try DiaryDatabase(path: file.path))
            deleted = try #require(store.create(text: "지울 일기", createdAt: DiaryTest.date(0))).id
            try await synced(store)
            store.delete(id: deleted)
            ids = (1...3).compactMap { store.create(text: "새 일기 \($0)\n본문", createdAt: DiaryTest.date(Double($0)))?.id }
            // The DELETE goes through; the first PUT reaches the server and its answer is lost: the app dies here.
            server.fail(.pass, .answerLost)
            await store.sync()
            #expect(store.lastSyncError?.kind == .offline)
            #expect(server.isTombstone(deleted) && server.entry(ids[0]) != nil && server.entry(ids[1]) == nil)
        }

        // A new launch: a new connection and engine on the same file finish the sync.
        let relaunched = try device(server, database: try DiaryDatabase(path: file.path))
        #expect(try relaunched.database.outbox().map(\.id) == ids, "the delivered write is still owed an answer")
        try await synced(relaunched)
        #expect(relaunched.lastSyncReport?.pushed == 3 && relaunched.lastSyncReport?.created == 2, "the replayed PUT created nothing")
        #expect(Set(server.liveEntries.map(\.id)) == Set((ids + [remote]).map { $0.uuidString.lowercased() }))
        #expect(relaunched.entries.map(\.title) == ["새 일기 3", "새 일기 2", "새 일기 1", "원격 일기"])
        #expect(ids.allSatisfy { server.versions($0).isEmpty }, "replaying a delivered PUT changes nothing on the server")
        #expect(server.requestLines.filter { $0.hasPrefix("DELETE") }.count == 1)
        #expect(try relaunched.database.outbox().isEmpty && relaunched.entries.allSatisfy { !$0.hasUnpushedChanges })
    }

    @Test func aPullInterruptedBetweenPagesResumesFromTheLastAppliedPage() async throws {
        let file = DiaryTest.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.directory) }
        let server = DiaryFakeServer()
        for number in 1...5 { server.write(UUID(), title: "원격 \(number)", body: "") }
        let cursor: String
        do {
            let store = try device(server, database: try DiaryDatabase(path: file.path), pageSize: 2)
            // The first page arrives and is applied with its cursor; the second's answer is lost.
            server.fail(.pass, .answerLost)
            await store.sync()
            #expect(store.lastSyncError?.kind == .offline)
            #expect(store.entries.map(\.title).sorted() == ["원격 1", "원격 2"])
            cursor = try #require(try store.database.syncCursor())
        }
        let relaunched = try device(server, database: try DiaryDatabase(path: file.path), pageSize: 2)
        try await synced(relaunched)
        #expect(relaunched.entries.count == 5 && relaunched.lastSyncReport?.applied == 3)
        #expect(DiaryFakeServer.query(server.requests[2])["since"] == cursor)
    }
}
