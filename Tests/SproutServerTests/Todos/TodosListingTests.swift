import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
@testable import SproutServer

/// Paging, ordering, `is_done` and search over the shared list.
@Suite struct TodosListingTests {
    @Test func pagesCarryLaravelMetaAndAPagePastTheEndIsEmpty() async throws {
        try await withTestApp { client, _ in
            for number in 1...23 { try await client.createTodo("numbered todo \(number)") }
            let first = try #require(try await client.send(.get, "/api/v2/todos?page=1&per_page=10").json)
            #expect(first["data"]?.array?.count == 10)
            #expect(first["meta"] == .object([
                "current_page": .number(1), "from": .number(1), "last_page": .number(3),
                "per_page": .number(10), "to": .number(10), "total": .number(23),
            ]))
            let last = try #require(try await client.send(.get, "/api/v2/todos?page=3&per_page=10").json)
            #expect(last["data"]?.array?.count == 3)
            #expect(last["meta"]?["from"] == .number(21))
            #expect(last["meta"]?["to"] == .number(23))
            let past = try await client.send(.get, "/api/v2/todos?page=4&per_page=10")
            #expect(past.status == .ok)
            #expect(past.json?["data"] == .array([]))
            #expect(past.json?["meta"]?["from"] == .null)
            #expect(past.json?["meta"]?["to"] == .null)
            #expect(past.json?["meta"]?["current_page"] == .number(4))
            #expect(past.json?["meta"]?["last_page"] == .number(3))
            #expect(past.json?["meta"]?["total"] == .number(23))
        }
    }

    @Test func emptyListHasLastPageOneAndNullBounds() async throws {
        try await withTestApp { client, _ in
            let json = try #require(try await client.send(.get, "/api/v2/todos").json)
            #expect(json["data"] == .array([]))
            #expect(json["meta"] == .object([
                "current_page": .number(1), "from": .null, "last_page": .number(1),
                "per_page": .number(10), "to": .null, "total": .number(0),
            ]))
        }
    }

    @Test func newestFirstByDefaultWithSameSecondTiesBrokenById() async throws {
        try await withTestApp { client, _ in
            // Created within the same second or two: created_at ties, so id decides.
            var ids: [Int] = []
            for number in 1...5 { ids.append(try await client.createTodo("same second todo \(number)")) }
            let descending = try #require(try await client.send(.get, "/api/v2/todos").json)
            #expect(descending["data"]?.array?.compactMap { $0["id"]?.int } == ids.reversed())
            let ascending = try #require(try await client.send(.get, "/api/v2/todos?order_by=asc").json)
            #expect(ascending["data"]?.array?.compactMap { $0["id"]?.int } == ids)
        }
    }

    @Test func orderingByUpdatedAtFollowsEdits() async throws {
        let time = TestWallClock()
        try await withTestApp(clock: time.clock) { client, _ in
            let older = try await client.createTodo("older todo here")
            let newer = try await client.createTodo("newer todo here")
            time.advance(by: 3600)
            _ = try await client.sendForm(.put, "/api/v2/todos/\(older)", "is_done=true")
            let json = try #require(try await client.send(.get, "/api/v2/todos?filter=updated_at&order_by=desc").json)
            #expect(json["data"]?.array?.compactMap { $0["id"]?.int } == [older, newer])
            let byCreated = try #require(try await client.send(.get, "/api/v2/todos?filter=created_at&order_by=desc").json)
            #expect(byCreated["data"]?.array?.compactMap { $0["id"]?.int } == [newer, older])
        }
    }

    @Test func perPageIsClampedToOneThroughHundred() async throws {
        try await withTestApp { client, _ in
            for number in 1...3 { try await client.createTodo("clamp test todo \(number)") }
            for (raw, expected) in [("0", 1), ("-5", 1), ("1000", 100), ("2", 2)] {
                let json = try await client.send(.get, "/api/v2/todos?per_page=\(raw)").json
                #expect(json?["meta"]?["per_page"]?.int == expected, "per_page=\(raw)")
            }
            #expect(try await client.send(.get, "/api/v2/todos?page=0").json?["meta"]?["current_page"]?.int == 1)
            #expect(try await client.send(.get, "/api/v2/todos?page=-2").json?["meta"]?["current_page"]?.int == 1)
        }
    }

    @Test func isDoneFiltersListAndSearch() async throws {
        try await withTestApp { client, _ in
            let done = try await client.createTodo("finished groceries", isDone: true)
            let open = try await client.createTodo("open groceries run", isDone: false)
            let hideCompleted = try await client.send(.get, "/api/v2/todos?is_done=false").json
            #expect(hideCompleted?["data"]?.array?.compactMap { $0["id"]?.int } == [open])
            #expect(hideCompleted?["meta"]?["total"]?.int == 1)
            let onlyDone = try await client.send(.get, "/api/v2/todos?is_done=true").json
            #expect(onlyDone?["data"]?.array?.compactMap { $0["id"]?.int } == [done])
            let searchOpen = try await client.send(.get, "/api/v2/todos/search?query=groceries&is_done=0").json
            #expect(searchOpen?["data"]?.array?.compactMap { $0["id"]?.int } == [open])
        }
    }

    @Test func searchMatchesTitleSubstringsCaseInsensitivelyAndInKorean() async throws {
        try await withTestApp { client, _ in
            let english = try await client.createTodo("Buy MILK and bread")
            let korean = try await client.createTodo("우유 사러 마트 가기")
            let accented = try await client.createTodo("Réserver le CAFÉ demain")
            try await client.createTodo("nothing relevant here")
            let milk = try await client.send(.get, "/api/v2/todos/search?query=milk").json
            #expect(milk?["data"]?.array?.compactMap { $0["id"]?.int } == [english])
            let encodedKorean = "우유".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let 우유 = try await client.send(.get, "/api/v2/todos/search?query=\(encodedKorean)&filter=created_at&order_by=desc&page=1&per_page=10").json
            #expect(우유?["data"]?.array?.compactMap { $0["id"]?.int } == [korean])
            let café = try await client.send(.get, "/api/v2/todos/search?query=caf%C3%A9").json
            #expect(café?["data"]?.array?.compactMap { $0["id"]?.int } == [accented])
            let plusIsSpace = try await client.send(.get, "/api/v2/todos/search?query=buy+milk").json
            #expect(plusIsSpace?["data"]?.array?.compactMap { $0["id"]?.int } == [english])
        }
    }

    /// Hangul pasted from macOS is often decomposed (NFD); a query typed elsewhere is composed (NFC).
    @Test func searchMatchesAcrossUnicodeNormalisationForms() async throws {
        try await withTestApp { client, _ in
            let decomposed = "장보기 목록 정리".decomposedStringWithCanonicalMapping
            let id = try await client.createTodo(decomposed)
            let query = "장보기".precomposedStringWithCanonicalMapping.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let found = try await client.send(.get, "/api/v2/todos/search?query=\(query)").json
            #expect(found?["data"]?.array?.compactMap { $0["id"]?.int } == [id])
        }
    }

    @Test func searchTreatsLikeWildcardsAsPlainText() async throws {
        try await withTestApp { client, _ in
            let percent = try await client.createTodo("discount 50% off")
            try await client.createTodo("discount 500 off")
            let underscore = try await client.createTodo("rename file_name.txt")
            try await client.createTodo("rename fileXname.txt")
            #expect(try await client.send(.get, "/api/v2/todos/search?query=50%25").json?["data"]?.array?.compactMap { $0["id"]?.int } == [percent])
            #expect(try await client.send(.get, "/api/v2/todos/search?query=file_name").json?["data"]?.array?.compactMap { $0["id"]?.int } == [underscore])
        }
    }

    @Test func searchWithNoMatchesIsAnEmptyPage() async throws {
        try await withTestApp { client, _ in
            try await client.createTodo("something else entirely")
            let response = try await client.send(.get, "/api/v2/todos/search?query=zzz")
            #expect(response.status == .ok)
            #expect(response.json?["data"] == .array([]))
            #expect(response.json?["meta"]?["total"] == .number(0))
        }
    }
}
