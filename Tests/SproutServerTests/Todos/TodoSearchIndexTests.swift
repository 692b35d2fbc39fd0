import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Search goes through a trigram index (FTS5 on SQLite, pg_trgm on PostgreSQL) that must follow every write,
/// and around it for queries too short for trigrams.
@Suite struct TodoSearchIndexTests {
    @Test func searchFollowsCreateRenameAndDelete() async throws {
        try await withTestApp { client, _ in
            let id = try await client.createTodo("water the balcony plants")
            let other = try await client.createTodo("water bill payment")
            #expect(try await ids(client, "balcony") == [id])
            #expect(try await ids(client, "water") == [other, id])

            #expect(try await client.sendForm(.put, "/api/v2/todos/\(id)", "title=repot+the+cactus").status == .ok)
            #expect(try await ids(client, "balcony") == [])
            #expect(try await ids(client, "cactus") == [id])
            #expect(try await ids(client, "water") == [other])

            #expect(try await client.send(.delete, "/api/v2/todos/\(id)").status == .ok)
            #expect(try await ids(client, "cactus") == [])
            #expect(try await total(client, "cactus") == 0)
        }
    }

    /// Two Hangul characters are the commonest Korean query; SQLite 3.40.1's trigram index answers them with no
    /// rows, so they (and anything under three characters) must be answered without it.
    @Test(arguments: ["공지", "he", "ö", "지사"])
    func queriesShorterThanThreeCharactersStillMatch(query: String) async throws {
        try await withTestApp { client, _ in
            let notice = try await client.createTodo("공지사항 확인하기")
            let hello = try await client.createTodo("Say hello to Jörg")
            _ = try await client.createTodo("unrelated entry")
            let expected: [Int] = switch query {
            case "공지", "지사": [notice]
            default: [hello]
            }
            #expect(try await ids(client, query) == expected)
            #expect(try await total(client, query) == expected.count)
        }
    }

    @Test func searchTotalCountsEveryMatchNotOnlyThePage() async throws {
        try await withTestApp { client, _ in
            for number in 1...13 { try await client.createTodo("matching 공지사항 \(number)") }
            try await client.createTodo("not this one")
            let page = try #require(try await client.send(.get, "/api/v2/todos/search?query=\(encoded("공지사항"))&per_page=5&page=3").json)
            #expect(page["meta"]?["total"] == .number(13))
            #expect(page["data"]?.array?.count == 3)
            let past = try #require(try await client.send(.get, "/api/v2/todos/search?query=\(encoded("공지사항"))&per_page=5&page=4").json)
            #expect(past["meta"]?["total"] == .number(13))
            #expect(past["data"] == .array([]))
        }
    }

    @Test func quotesAndBackslashesInAQueryAreText() async throws {
        try await withTestApp { client, _ in
            let quoted = try await client.createTodo(#"say "hi" to \ everyone"#)
            #expect(try await ids(client, #""hi""#) == [quoted])
            #expect(try await ids(client, #"to \ ev"#) == [quoted])
            #expect(try await ids(client, #"" OR ""#) == [])
        }
    }

    /// On SQLite a search asks the index only for its rarest trigrams, by counts it remembers for minutes; the
    /// index itself is read live, so counts gone stale (a trigram counted in no row, then written) change
    /// which trigrams are asked for, never the answer.
    @Test func searchStaysRightWhenTheRememberedTrigramCountsAreStale() async throws {
        try await withTestApp { client, database in
            for number in 1...30 { try await client.createTodo("seeded todo number \(number)") }
            #expect(try await ids(client, "cactus") == [])
            #expect(try await total(client, "number 12") == 1)

            let cactus = try await client.createTodo("repot the cactus")
            let twelve = try await client.createTodo("another number 12")
            #expect(try await ids(client, "cactus") == [cactus])
            #expect(try await ids(client, "number 12") == [twelve, 12])

            guard let remembered = database.executor.trigramCounts else { return }  // PostgreSQL: nothing counted
            let index = TodoMigrations.search.name
            #expect(remembered.counts(of: ["cac", "num", " 12"], in: index) == ["cac": 0, "num": 30, " 12": 1])
        }
    }

    private func ids(_ client: some TestClientProtocol, _ query: String) async throws -> [Int] {
        let json = try await client.send(.get, "/api/v2/todos/search?query=\(encoded(query))&per_page=100").json
        return json?["data"]?.array?.compactMap { $0["id"]?.int } ?? []
    }

    private func total(_ client: some TestClientProtocol, _ query: String) async throws -> Int? {
        try await client.send(.get, "/api/v2/todos/search?query=\(encoded(query))").json?["meta"]?["total"]?.int
    }

    private func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
