import Foundation
import SproutKit
import Testing

/// `DiarySyncEngine.apply`: a `diary` event pulls at once, and a burst of events makes one more pull, not many.
@Suite struct DiarySyncEngineLiveTests {
    static func diaryChange(_ id: UUID) -> LiveEvent {
        .change(LiveChange(topic: "diary", seq: 1, action: "entry.created", id: id.uuidString.lowercased()))
    }

    @Test func aDiaryEventPullsTheChange() async throws {
        let server = DiaryFakeServer()
        let database = try DiaryDatabase()
        let engine = DiarySyncEngine(database: database, client: server.client)
        let id = UUID()
        server.write(id, title: "다른 기기의 일기", body: "본문")
        await engine.apply(Self.diaryChange(id))
        await engine.liveSyncsFinished()
        #expect(try database.entries().map(\.title) == ["다른 기기의 일기"])
        #expect(server.requests("GET").count == 1)
        // Other topics start nothing.
        await engine.apply(.change(LiveChange(topic: "todos", seq: 1, action: "todo.created", id: "1")))
        await engine.liveSyncsFinished()
        #expect(server.requests("GET").count == 1)
    }

    @Test func eventsDuringAPullAreCoalescedIntoOneMore() async throws {
        let server = DiaryFakeServer()
        let database = try DiaryDatabase()
        let engine = DiarySyncEngine(database: database, client: server.client)
        server.hold()
        await engine.apply(Self.diaryChange(UUID()))
        try await server.waitForRequests(1)
        let late = UUID()
        server.write(late, title: "늦게 온 일기", body: "본문")
        for _ in 0..<5 { await engine.apply(Self.diaryChange(late)) }
        server.release()
        await engine.liveSyncsFinished()
        #expect(server.requests("GET").count == 2, "one pull in flight, then one for all the events that came during it")
        #expect(try database.entries().map(\.title) == ["늦게 온 일기"])
        #expect(await engine.lastLiveSyncError == nil)
    }
}
