import Foundation
import HTTPTypes
import SproutWire
import Testing
@testable import SproutServer

/// The Diary API's contract (docs/diary-api.md): PUT creates or replaces idempotently, DELETE leaves a tombstone,
/// the list pages newest first, and every refusal is `{"message"}` with its status.
@Suite struct DiaryContractTests {
    @Test func putCreatesThenReplacesAndTheSamePutReplayedChangesNothing() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = UUID().uuidString  // uppercase, as Swift writes it
            let write = DiaryEntryWriteJSON(title: "첫 줄", body: "본문\n둘째 줄", createdAt: "2022-06-28T03:00:00Z", weather: DiaryTest.clouds)

            let created = try await client.putEntry(id, write, as: account)
            #expect(created.status == .created)
            let entry = try created.entry
            #expect(entry.id == id.lowercased() && entry.title == "첫 줄" && entry.body == "본문\n둘째 줄" && !entry.deleted)
            #expect(entry.createdAt == "2022-06-28T03:00:00.000Z" && entry.weather == DiaryTest.clouds)

            // The same PUT again (an offline client retrying): 200, nothing moves.
            let replayed = try await client.putEntry(id, write, as: account)
            #expect(replayed.status == .ok)
            #expect(try replayed.entry == entry)

            // A replace that omits createdAt and weather keeps them.
            let edited = try await client.putEntry(id, DiaryEntryWriteJSON(title: "고친 줄", body: ""), as: account)
            #expect(edited.status == .ok)
            let after = try edited.entry
            #expect(after.title == "고친 줄" && after.body == "" && after.createdAt == entry.createdAt && after.weather == DiaryTest.clouds)
            #expect(after.updatedAt > entry.updatedAt)

            // GET answers what PUT answered, in any id case.
            let shown = try await client.diary(.get, "/api/diary/entries/\(id.lowercased())", as: account)
            #expect(try shown.status == .ok && shown.entry == after)

            // Weather sent as null is removed.
            let cleared = try await client.diary(.put, "/api/diary/entries/\(id)", body: #"{"title": "고친 줄", "body": "", "weather": null}"#, as: account)
            #expect(try cleared.status == .ok && cleared.entry.weather == nil)
        }
    }

    /// The contract's weather is `{"main", "icon"}`: the seed app sends no description or temperature.
    @Test func weatherOfMainAndIconAloneIsKeptAndAnsweredBackAsSent() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            let put = try await client.diary(.put, "/api/diary/entries/\(id)", body: #"{"title": "비 오는 날", "body": "", "weather": {"main": "Rain", "icon": "10d"}}"#, as: account)
            #expect(put.status == .created, "\(put.message ?? "")")
            let answered = String(decoding: put.body, as: UTF8.self)
            #expect(answered.contains(#""weather":{"icon":"10d","main":"Rain"}"#), "\(answered)")
            #expect(try put.entry.weather == DiaryWeatherJSON(main: "Rain", icon: "10d"))

            let shown = try await client.diary(.get, "/api/diary/entries/\(id)", as: account)
            #expect(String(decoding: shown.body, as: UTF8.self).contains(#""weather":{"icon":"10d","main":"Rain"}"#))
            let listed = try await client.diary(.get, "/api/diary/entries", as: account).decode(DiaryPageJSON.self)
            #expect(listed.entries.first?.weather == DiaryWeatherJSON(main: "Rain", icon: "10d"))

            // Extras sent as null are the same as left out; one extra alone is kept alone.
            let nulls = try await client.diary(.put, "/api/diary/entries/\(id)", body: #"{"title": "비 오는 날", "body": "", "weather": {"main": "Rain", "icon": "10d", "description": null, "tempC": null}}"#, as: account)
            #expect(try nulls.status == .ok && nulls.entry.weather == DiaryWeatherJSON(main: "Rain", icon: "10d"))
            let warm = try await client.diary(.put, "/api/diary/entries/\(id)", body: #"{"title": "비 오는 날", "body": "", "weather": {"main": "Rain", "icon": "10n", "tempC": 21.04}}"#, as: account)
            #expect(try warm.entry.weather == DiaryWeatherJSON(main: "Rain", icon: "10n", tempC: 21.0))

            // main and icon stay required; a wrong extra is still named.
            for (body, words) in [(#"{"main": "Rain"}"#, "weather.icon"), (#"{"icon": "10d"}"#, "weather.main"),
                                  (#"{"main": "Rain", "icon": "10d", "tempC": "warm"}"#, "weather.tempC"),
                                  (#"{"main": "Rain", "icon": "10d", "description": 3}"#, "weather.description")] {
                let refused = try await client.diary(.put, "/api/diary/entries/\(id)", body: #"{"title": "t", "weather": \#(body)}"#, as: account)
                #expect(refused.status == .badRequest && (refused.message ?? "").contains(words), "\(body): \(refused.message ?? "")")
            }
        }
    }

    @Test func deleteLeavesATombstoneThatAPutBringsBack() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            let original = try await client.putEntry(id, DiaryEntryWriteJSON(title: "지울 글", body: "내용"), as: account).entry

            let deleted = try await client.diary(.delete, "/api/diary/entries/\(id)", as: account)
            #expect(deleted.status == .ok)
            let tombstone = try deleted.decode(DiaryTombstoneJSON.self)
            #expect(tombstone.id == id && tombstone.deleted && tombstone.updatedAt > original.updatedAt)
            #expect(String(decoding: deleted.body, as: UTF8.self) == #"{"deleted":true,"id":"\#(id)","updatedAt":"\#(tombstone.updatedAt)"}"#)

            #expect(try await client.diary(.get, "/api/diary/entries/\(id)", as: account).status == .notFound)
            #expect(try await client.diary(.delete, "/api/diary/entries/\(id)", as: account).status == .notFound)
            #expect(try await client.diary(.delete, "/api/diary/entries/\(DiaryTest.newID())", as: account).status == .notFound)
            let list = try await client.diary(.get, "/api/diary/entries", as: account).decode(DiaryPageJSON.self)
            #expect(list.entries.isEmpty && list.total == 0)

            let revived = try await client.putEntry(id, DiaryEntryWriteJSON(title: "돌아온 글", body: ""), as: account)
            #expect(try revived.status == .created && revived.entry.title == "돌아온 글")
            #expect(try await client.diary(.get, "/api/diary/entries", as: account).decode(DiaryPageJSON.self).total == 1)
        }
    }

    @Test func theListIsNewestFirstByCreationWithTiesByIDAndPagesWithItsTotal() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            var expected: [String] = []
            // 25 entries on 25 days, written in a shuffled order; two more share the newest day's time.
            for day in (1...25).shuffled() {
                let id = String(format: "00000000-0000-4000-8000-%012d", day)
                _ = try await client.putEntry(id, DiaryEntryWriteJSON(title: "\(day)일", body: "", createdAt: String(format: "2022-06-%02dT00:00:00Z", day + 1)), as: account)
            }
            let tied = ["ffffffff-0000-4000-8000-000000000000", "eeeeeeee-0000-4000-8000-000000000000"]
            for id in tied {
                _ = try await client.putEntry(id, DiaryEntryWriteJSON(title: "같은 때", body: "", createdAt: "2022-07-01T00:00:00Z"), as: account)
            }
            expected = tied + (1...25).reversed().map { String(format: "00000000-0000-4000-8000-%012d", $0) }

            let first = try await client.diary(.get, "/api/diary/entries", as: account).decode(DiaryPageJSON.self)
            #expect(first.total == 27 && first.entries.map(\.id) == Array(expected.prefix(20)))
            let second = try await client.diary(.get, "/api/diary/entries?limit=20&offset=20", as: account).decode(DiaryPageJSON.self)
            #expect(second.total == 27 && second.entries.map(\.id) == Array(expected.suffix(7)))
            let small = try await client.diary(.get, "/api/diary/entries?limit=1&offset=26", as: account).decode(DiaryPageJSON.self)
            #expect(small.entries.map(\.id) == [expected[26]])
        }
    }

    @Test func entriesBelongToTheirAccount() async throws {
        try await withTestApp { client, _ in
            let mine = try await client.signUp("mine")
            let theirs = try await client.signUp("theirs")
            let id = DiaryTest.newID()
            _ = try await client.putEntry(id, DiaryEntryWriteJSON(title: "내 글", body: ""), as: mine)

            #expect(try await client.diary(.get, "/api/diary/entries/\(id)", as: theirs).status == .notFound)
            #expect(try await client.diary(.delete, "/api/diary/entries/\(id)", as: theirs).status == .notFound)
            #expect(try await client.diary(.get, "/api/diary/entries/\(id)/versions", as: theirs).status == .notFound)
            #expect(try await client.diary(.get, "/api/diary/entries", as: theirs).decode(DiaryPageJSON.self).total == 0)
            #expect(try await client.diaryChanges(since: DiaryTest.epoch, as: theirs).changes.isEmpty)

            // The same UUID under the other account is another entry.
            let other = try await client.putEntry(id, DiaryEntryWriteJSON(title: "남의 글", body: ""), as: theirs)
            #expect(other.status == .created)
            #expect(try await client.diary(.get, "/api/diary/entries/\(id)", as: mine).entry.title == "내 글")
        }
    }

    @Test func everyCallNeedsAnAccount() async throws {
        try await withTestApp { client, database in
            let id = DiaryTest.newID()
            let account = try await client.signUp("diarist")
            let expired = TestAccount(id: account.id, username: "diarist", token: try await database.token(for: account.id, issuedAt: Date(timeIntervalSinceNow: -40 * 86_400)))
            let forged = TestAccount(id: account.id, username: "diarist", token: try await database.token(for: account.id, secret: String(repeating: "x", count: 40)))
            for caller in [nil, expired, forged] {
                for (method, path) in [(HTTPRequest.Method.get, "/api/diary/entries"), (.get, "/api/diary/entries/\(id)"), (.put, "/api/diary/entries/\(id)"),
                                       (.delete, "/api/diary/entries/\(id)"), (.get, "/api/diary/entries/\(id)/versions"), (.get, "/api/weather?lat=1&lon=1")] {
                    let answer = try await client.diary(method, path, body: method == .put ? #"{"title": "x"}"# : nil, as: caller)
                    #expect(answer.status == .unauthorized && answer.message != nil, "\(method) \(path)")
                }
            }
        }
    }

    @Test func badInputIsA400ThatSaysWhat() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            let refused: [(String, String, String)] = [
                ("/api/diary/entries/not-a-uuid", #"{"title": "x"}"#, "UUID"),
                ("/api/diary/entries/\(id)", #"{"body": "no title"}"#, "title is required"),
                ("/api/diary/entries/\(id)", #"{"title": "   "}"#, "empty"),
                ("/api/diary/entries/\(id)", #"{"title": "two\nlines"}"#, "line break"),
                ("/api/diary/entries/\(id)", #"{"title": 5}"#, "title must be text"),
                ("/api/diary/entries/\(id)", #"{"title": "x", "body": "a\u0000b"}"#, "NUL"),
                ("/api/diary/entries/\(id)", "{\"title\": \"\(String(repeating: "가", count: 1_001))\"}", "at most 1000"),
                ("/api/diary/entries/\(id)", #"{"title": "x", "createdAt": "yesterday"}"#, "createdAt"),
                ("/api/diary/entries/\(id)", #"{"title": "x", "baseUpdatedAt": "2022-06-28"}"#, "baseUpdatedAt"),
                ("/api/diary/entries/\(id)", #"{"title": "x", "weather": "sunny"}"#, "weather must be an object"),
                ("/api/diary/entries/\(id)", #"{"title": "x", "weather": {"main": "Clouds", "description": "", "icon": "sun", "tempC": 1}}"#, "weather.icon"),
                ("/api/diary/entries/\(id)", #"{"title": "x", "weather": {"main": "Clouds", "description": "", "icon": "01d", "tempC": 900}}"#, "weather.tempC"),
                ("/api/diary/entries/\(id)", #"{"title": "x", "weather": {"description": "", "icon": "01d", "tempC": 1}}"#, "weather.main"),
                ("/api/diary/entries/\(id)", "[1, 2]", "JSON object"),
                ("/api/diary/entries/\(id)", #""just text""#, "JSON object"),
                ("/api/diary/entries/\(id)", "{\"title\": \"x\", \"deep\": \(String(repeating: "[", count: 600))\(String(repeating: "]", count: 600))}", "not valid JSON"),
                ("/api/diary/entries/\(id)", "{\"title\": ", "not valid JSON"),
            ]
            for (path, body, words) in refused {
                let answer = try await client.diary(.put, path, body: body, as: account)
                #expect(answer.status == .badRequest && (answer.message ?? "").contains(words), "\(body): \(answer.status) \(answer.message ?? "")")
            }
            let tooLarge = try await client.diary(.put, "/api/diary/entries/\(id)", body: "{\"title\": \"x\", \"body\": \"\(String(repeating: "a", count: 300_000))\"}", as: account)
            #expect(tooLarge.status == .contentTooLarge && tooLarge.message != nil)

            for query in ["limit=0", "limit=101", "limit=ten", "offset=-1", "offset=1.5", "since=yesterday", "since=\(DiaryTest.epoch)&offset=0", "since=\(DiaryTest.epoch)&limit=0"] {
                let answer = try await client.diary(.get, "/api/diary/entries?\(query)", as: account)
                #expect(answer.status == .badRequest && answer.message != nil, "\(query)")
            }
            #expect(try await client.diary(.get, "/api/diary/entries", as: account).decode(DiaryPageJSON.self).total == 0)
        }
    }

    @Test func versionsKeepWhatEachWriteAndDeletionReplaced() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            let first = try await client.putEntry(id, DiaryEntryWriteJSON(title: "하나", body: "", weather: DiaryTest.clouds), as: account).entry
            // An edit made from the first version, and one that had not seen the second.
            let second = try await client.putEntry(id, DiaryEntryWriteJSON(title: "둘", body: "", baseUpdatedAt: first.updatedAt), as: account).entry
            let third = try await client.putEntry(id, DiaryEntryWriteJSON(title: "셋", body: "", baseUpdatedAt: first.updatedAt), as: account).entry
            _ = try await client.diary(.delete, "/api/diary/entries/\(id)", as: account)

            let versions = try await client.diary(.get, "/api/diary/entries/\(id)/versions", as: account).decode(DiaryVersionsJSON.self).versions
            #expect(versions.map(\.title) == ["셋", "둘", "하나"])
            #expect(versions.map(\.reason) == ["deleted", "conflict", "replaced"])
            #expect(versions.map(\.updatedAt) == [third.updatedAt, second.updatedAt, first.updatedAt])
            #expect(versions[2].replacedAt == second.updatedAt && versions[2].weather == DiaryTest.clouds)
            #expect(try await client.diary(.get, "/api/diary/entries/\(DiaryTest.newID())/versions", as: account).status == .notFound)
        }
    }

    @Test func anAutosavingEditorKeepsItsNewestTwentyVersionsAndEveryConflict() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            var last = try await client.putEntry(id, DiaryEntryWriteJSON(title: "v0", body: ""), as: account).entry
            let conflicting = try await client.putEntry(id, DiaryEntryWriteJSON(title: "다른 기기", body: ""), as: account).entry
            last = conflicting
            for number in 1...30 {
                last = try await client.putEntry(id, DiaryEntryWriteJSON(title: "v\(number)", body: "", baseUpdatedAt: last.updatedAt), as: account).entry
            }
            let versions = try await client.diary(.get, "/api/diary/entries/\(id)/versions", as: account).decode(DiaryVersionsJSON.self).versions
            #expect(versions.filter { $0.reason == "replaced" }.map(\.title) == (10...29).reversed().map { "v\($0)" })
            #expect(versions.filter { $0.reason == "conflict" }.map(\.title) == ["v0"])
        }
    }

    /// A client that never sends baseUpdatedAt makes every autosave a `conflict`: those were kept without bound.
    @Test func versionsOfEveryKindAreCappedPerEntry() async throws {
        try await withTestApp(configure: { $0.diary.keptVersions = 5 }) { client, _ in
            let account = try await client.signUp("diarist")
            let id = DiaryTest.newID()
            for number in 0..<12 {
                _ = try await client.putEntry(id, DiaryEntryWriteJSON(title: "v\(number)", body: ""), as: account)
            }
            var versions = try await client.diary(.get, "/api/diary/entries/\(id)/versions", as: account).decode(DiaryVersionsJSON.self).versions
            #expect(versions.map(\.title) == ["v10", "v9", "v8", "v7", "v6"] && versions.allSatisfy { $0.reason == "conflict" })
            #expect(try await client.diary(.delete, "/api/diary/entries/\(id)", as: account).status == .ok)
            versions = try await client.diary(.get, "/api/diary/entries/\(id)/versions", as: account).decode(DiaryVersionsJSON.self).versions
            #expect(versions.map(\.title) == ["v11", "v10", "v9", "v8", "v7"] && versions.first?.reason == "deleted")
        }
        #expect(SproutConfiguration().diary.keptVersions == 50)
        #expect(try SproutConfiguration.fromEnvironment(["DIARY_KEPT_VERSIONS": "7"]).diary.keptVersions == 7)
        #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["DIARY_KEPT_VERSIONS": "0"]) }
    }
}
