import Foundation
import HTTPTypes
import HummingbirdTesting
import SproutWire
import Testing
@testable import SproutServer

/// Syncing through `since`: changes and tombstones oldest first, paged; two devices editing one entry; delete
/// against edit; a replayed PUT; and writers racing `since` readers across two server processes, with nothing missed.
@Suite struct DiarySyncTests {
    @Test func sinceAnswersChangesAndTombstonesOldestFirstAndPages() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let ids = (0..<5).map { _ in DiaryTest.newID() }
            for (number, id) in ids.enumerated() {
                _ = try await client.putEntry(id, DiaryEntryWriteJSON(title: "글 \(number)", body: ""), as: account)
            }
            let start = try await client.diaryChanges(since: DiaryTest.epoch, as: account)
            #expect(start.changes.map(\.id) == ids && start.changes.allSatisfy { !$0.deleted && $0.title != nil })

            _ = try await client.diary(.delete, "/api/diary/entries/\(ids[1])", as: account)
            _ = try await client.putEntry(ids[3], DiaryEntryWriteJSON(title: "고친 글", body: ""), as: account)
            let answer = try await client.diary(.get, "/api/diary/entries?since=\(start.now)", as: account)
            let changes = try answer.decode(DiaryChangesJSON.self)
            #expect(changes.changes.map(\.id) == [ids[1], ids[3]] && !changes.hasMore)
            #expect(changes.changes[0].deleted && changes.changes[0].title == nil && changes.changes[1].title == "고친 글")
            // A tombstone carries its id, updatedAt and deleted only.
            let raw = String(decoding: answer.body, as: UTF8.self)
            #expect(raw.contains(#"{"id":"\#(ids[1])","updatedAt":"\#(changes.changes[0].updatedAt)","deleted":true}"#) || raw.contains(#"{"deleted":true,"id":"\#(ids[1])","updatedAt":"\#(changes.changes[0].updatedAt)"}"#))
            #expect(changes.now >= changes.changes[1].updatedAt && changes.now > start.now)

            // Nothing new: nothing answered, and the clock still moves on.
            let quiet = try await client.diary(.get, "/api/diary/entries?since=\(changes.now)", as: account).decode(DiaryChangesJSON.self)
            #expect(quiet.changes.isEmpty && !quiet.hasMore && quiet.now > changes.now)

            // Pages of 2: hasMore until the end; `now` of a full page is its last change's updatedAt.
            let first = try await client.diary(.get, "/api/diary/entries?since=\(DiaryTest.epoch)&limit=2", as: account).decode(DiaryChangesJSON.self)
            #expect(first.hasMore && first.changes.count == 2 && first.now == first.changes[1].updatedAt)
            let paged = try await client.diaryChanges(since: DiaryTest.epoch, as: account, limit: 2)
            #expect(paged.changes.map(\.id) == [ids[0], ids[2], ids[4], ids[1], ids[3]])
        }
    }

    @Test func twoDevicesEditingOneEntryEndAlikeAndTheLoserIsKept() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            let shared = try await client.putEntry(id, DiaryEntryWriteJSON(title: "처음", body: ""), as: account).entry
            // Both devices start from the same version; the phone's edit arrives first, the laptop's last.
            let phone = try await client.putEntry(id, DiaryEntryWriteJSON(title: "폰에서 고침", body: "", baseUpdatedAt: shared.updatedAt), as: account)
            let laptop = try await client.putEntry(id, DiaryEntryWriteJSON(title: "노트북에서 고침", body: "", baseUpdatedAt: shared.updatedAt), as: account)
            #expect(phone.status == .ok && laptop.status == .ok)
            #expect(try laptop.entry.updatedAt > phone.entry.updatedAt)

            // Both pull: the last writer's text.
            let pulled = try await client.diaryChanges(since: shared.updatedAt, as: account)
            #expect(pulled.changes.map(\.title) == ["노트북에서 고침"])
            // The phone's edit is kept as a conflict, retrievable.
            let versions = try await client.diary(.get, "/api/diary/entries/\(id)/versions", as: account).decode(DiaryVersionsJSON.self).versions
            #expect(versions.first?.title == "폰에서 고침" && versions.first?.reason == "conflict")
            #expect(versions.map(\.title) == ["폰에서 고침", "처음"])
        }
    }

    @Test func deleteAgainstEditLosesNeitherWhicheverArrivesLast() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            // The edit arrives after the deletion: the entry comes back (201) with the edit.
            let revived = DiaryTest.newID()
            let original = try await client.putEntry(revived, DiaryEntryWriteJSON(title: "원래", body: ""), as: account).entry
            _ = try await client.diary(.delete, "/api/diary/entries/\(revived)", as: account)
            let edit = try await client.putEntry(revived, DiaryEntryWriteJSON(title: "오프라인에서 고침", body: "", baseUpdatedAt: original.updatedAt), as: account)
            #expect(edit.status == .created)
            #expect(try await client.diary(.get, "/api/diary/entries/\(revived)", as: account).entry.title == "오프라인에서 고침")

            // The deletion arrives after the edit: the entry is gone, the edit is kept as `deleted`.
            let removed = DiaryTest.newID()
            let before = try await client.putEntry(removed, DiaryEntryWriteJSON(title: "원래", body: ""), as: account).entry
            _ = try await client.putEntry(removed, DiaryEntryWriteJSON(title: "고친 뒤 지워짐", body: "", baseUpdatedAt: before.updatedAt), as: account)
            #expect(try await client.diary(.delete, "/api/diary/entries/\(removed)", as: account).status == .ok)
            let versions = try await client.diary(.get, "/api/diary/entries/\(removed)/versions", as: account).decode(DiaryVersionsJSON.self).versions
            #expect(versions.first?.title == "고친 뒤 지워짐" && versions.first?.reason == "deleted")
            let changes = try await client.diaryChanges(since: DiaryTest.epoch, as: account).changes
            #expect(changes.first { $0.id == removed }?.deleted == true && changes.first { $0.id == revived }?.deleted == false)
        }
    }

    /// Security review, point 8: a stale device's DELETE discarded a newer edit. With the `updatedAt` it last saw
    /// (`baseUpdatedAt` in the query or `If-Match`), the DELETE answers 409 when the entry moved on and leaves it;
    /// with the current one it deletes.
    @Test func aDeleteWithAStaleBaseIsRefusedWith409AndLeavesTheNewerEdit() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            let seen = try await client.putEntry(id, DiaryEntryWriteJSON(title: "처음", body: ""), as: account).entry
            let newer = try await client.putEntry(id, DiaryEntryWriteJSON(title: "다른 기기에서 고침", body: "", baseUpdatedAt: seen.updatedAt), as: account).entry

            let stale = try await client.diary(.delete, "/api/diary/entries/\(id)?baseUpdatedAt=\(seen.updatedAt)", as: account)
            #expect(stale.status == .conflict)
            var headers = account.bearer
            headers[.ifMatch] = "\"\(seen.updatedAt)\""
            let staleByTag = try await client.execute(uri: "/api/diary/entries/\(id)", method: .delete, headers: headers) { $0.status }
            #expect(staleByTag == .conflict)
            #expect(try await client.diary(.get, "/api/diary/entries/\(id)", as: account).entry.title == "다른 기기에서 고침")

            headers[.ifMatch] = "\"\(newer.updatedAt)\""
            let current = try await client.execute(uri: "/api/diary/entries/\(id)", method: .delete, headers: headers) { $0.status }
            #expect(current == .ok)
            #expect(try await client.diary(.get, "/api/diary/entries/\(id)", as: account).status == .notFound)
            // A base on an entry that is gone (or never was) is a 404, as without one.
            #expect(try await client.diary(.delete, "/api/diary/entries/\(id)?baseUpdatedAt=\(newer.updatedAt)", as: account).status == .notFound)
            #expect(try await client.diary(.delete, "/api/diary/entries/\(id)?baseUpdatedAt=yesterday", as: account).status == .badRequest)
        }
    }

    /// Security review, point 16: concurrent PUTs of one entry answered 409 once eight had overtaken one another.
    /// They take turns now: every one is applied, and every text but the last is a kept version.
    @Test func concurrentPutsOfOneEntryAllSucceed() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<30 {
                    group.addTask { try await client.putEntry(id, DiaryEntryWriteJSON(title: "쓰기 \(index)", body: ""), as: account).status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1 && statuses.filter { $0 == .ok }.count == 29, "\(statuses)")
            let versions = try await client.diary(.get, "/api/diary/entries/\(id)/versions", as: account).decode(DiaryVersionsJSON.self).versions
            #expect(versions.count == 29)
        }
    }

    @Test func aPutReplayedAfterALostAnswerIsHarmless() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            let write = DiaryEntryWriteJSON(title: "한 번만", body: "내용", createdAt: "2022-06-28T03:00:00Z")
            let first = try await client.putEntry(id, write, as: account)
            let cursor = try await client.diaryChanges(since: DiaryTest.epoch, as: account).now
            let replays = try await withThrowingTaskGroup(of: DiaryAnswer.self) { group in
                for _ in 0..<5 { group.addTask { try await client.putEntry(id, write, as: account) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(try replays.allSatisfy { try $0.status == .ok && $0.entry == first.entry })
            #expect(try await client.diaryChanges(since: cursor, as: account).changes.isEmpty)
            #expect(try await client.diary(.get, "/api/diary/entries", as: account).decode(DiaryPageJSON.self).total == 1)
        }
    }

    /// Four writers — two on each of two server processes sharing the database — create, edit and delete ten
    /// entries while a device pulls `since` over and over; after one last pull it holds exactly what the server
    /// holds. A write that committed after a pull but got an `updatedAt` at or before that pull's `now` would be
    /// missed for good and fail this.
    @Test func writersRacingSinceReadsAreNeverMissed() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("diarist")
            let ids = (0..<10).map { _ in DiaryTest.newID() }
            let second = try database.secondProcess()
            try await second.test(.router) { other in
                let finished = DoneFlag()
                let writing = Task {
                    defer { finished.set() }
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for writer in 0..<4 {
                            let process: any TestClientProtocol = writer % 2 == 0 ? client : other
                            group.addTask {
                                for step in 0..<30 {
                                    let id = ids[(writer * 7 + step * 3) % ids.count]
                                    if step % 7 == 6 {
                                        _ = try await process.diary(.delete, "/api/diary/entries/\(id)", as: account)
                                    } else {
                                        let answer = try await process.putEntry(id, DiaryEntryWriteJSON(title: "w\(writer) s\(step)", body: ""), as: account)
                                        guard answer.status == .ok || answer.status == .created else { throw TestFailure("PUT \(answer.status) \(answer.message ?? "")") }
                                    }
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                var device: [String: DiaryChangeJSON] = [:]
                var cursor = DiaryTest.epoch
                var pulls = 0
                func pull() async throws {
                    let page = try await client.diaryChanges(since: cursor, as: account)
                    for change in page.changes {
                        #expect(change.updatedAt > cursor && change.updatedAt <= page.now)
                        device[change.id] = change
                    }
                    cursor = page.now
                    pulls += 1
                }
                while !finished.isSet, pulls < 1_000 {
                    try await pull()
                }
                try await writing.value
                try await pull()

                let server = try await client.diaryChanges(since: DiaryTest.epoch, as: account).changes
                #expect(server.count == device.count)
                for change in server {
                    #expect(device[change.id] == change, "missed the last change of \(change.id)")
                }
                #expect(pulls > 2)
            }
        }
    }
}

/// Set once, read from any task.
final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    func set() { lock.withLock { done = true } }
    var isSet: Bool { lock.withLock { done } }
}
