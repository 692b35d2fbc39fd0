import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SproutServer

/// `_limit=-1` and long lists: capped, streamed a chunk at a time, few at once per account (issue 25, point 2).
@Suite struct CommunityLargeListTests {
    @Test func aStreamedListHoldsEveryRowInTheOrderPagesGive() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("streamer")
            let post = try await client.createPost("many replies", as: account)
            try await Self.addComments(1_234, text: "reply", on: post, by: account.id, database)
            // Three chunks of 500 and a short one; newest first, as the web app shows replies.
            let whole = try await client.send(.get, "/comments?_limit=-1&_sort=id:desc", headers: account.bearer)
            #expect(whole.status == .ok)
            let streamed = try #require(whole.json?.array).compactMap { $0["id"]?.int }
            var paged: [Int] = []
            for start in stride(from: 0, to: 1_300, by: 100) {
                let page = try await client.send(.get, "/comments?_limit=100&_start=\(start)&_sort=id:desc", headers: account.bearer)
                paged += try #require(page.json?.array).compactMap { $0["id"]?.int }
            }
            #expect(streamed.count == 1_234)
            #expect(streamed == paged)
            let first = try #require(whole.json?.array?.first)
            #expect(first["post"]?["id"]?.int == post && first["user"]?["username"]?.string == "streamer")

            let posts = try await client.send(.get, "/posts?_limit=-1", headers: account.bearer)
            #expect(posts.json?.array?.count == 1 && posts.json?[0]?["comments"]?.array?.count == 1_234)
        }
    }

    @Test func aStreamedListOfPostsCarriesEachPostsComments() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("poster")
            for index in 0..<620 { _ = try await Self.insertPost("post \(index)", by: account.id, database) }
            let commented = try await client.createPost("the one with replies", as: account)
            try await Self.addComments(3, text: "reply", on: commented, by: account.id, database)
            let answer = try await client.send(.get, "/posts?_limit=-1&_sort=id:desc", headers: account.bearer)
            let posts = try #require(answer.json?.array)
            #expect(posts.count == 621)
            #expect(posts.compactMap { $0["id"]?.int } == posts.compactMap { $0["id"]?.int }.sorted(by: >))
            #expect(posts.first?["id"]?.int == commented && posts.first?["comments"]?.array?.count == 3)
            #expect(posts.dropFirst().allSatisfy { $0["comments"]?.array?.isEmpty == true })
        }
    }

    @Test func minusOneAndLargeLimitsGiveAtMostTheConfiguredMaximum() async throws {
        try await withTestApp(configure: { $0.community.listMaxRows = 150 }) { client, database in
            let account = try await client.signUp("capped")
            let post = try await client.createPost("replies", as: account)
            try await Self.addComments(200, text: "reply", on: post, by: account.id, database)
            for limit in ["-1", "1000", "150"] {
                let answer = try await client.send(.get, "/comments?_limit=\(limit)", headers: account.bearer)
                #expect(answer.json?.array?.count == 150, "_limit=\(limit)")
            }
            let small = try await client.send(.get, "/comments?_limit=40&_start=180", headers: account.bearer)
            #expect(small.json?.array?.count == 20)
            let empty = try await client.send(.get, "/comments?_limit=-1&post=\(post + 1)", headers: account.bearer)
            #expect(empty.status == .ok && empty.json?.array?.isEmpty == true)
        }
    }

    @Test func theMaximumComesFromTheEnvironmentWithinItsRange() throws {
        #expect(try SproutConfiguration.fromEnvironment([:]).community.listMaxRows == 10_000)
        #expect(try SproutConfiguration.fromEnvironment(["COMMUNITY_LIST_MAX_ROWS": "50000"]).community.listMaxRows == 50_000)
        for bad in ["0", "99", "-1", "all", "1000001"] {
            #expect(throws: ConfigurationError.self) { try SproutConfiguration.fromEnvironment(["COMMUNITY_LIST_MAX_ROWS": bad]) }
        }
    }

    @Test func aLongListBeyondTheAccountsSlotsIsRefusedWith429WhileAPageStillWorks() async throws {
        try await withTestApp(configure: { $0.community.largeLists.perAccount = 0 }) { client, database in
            let account = try await client.signUp("greedy")
            let post = try await client.createPost("replies", as: account)
            try await Self.addComments(150, text: "reply", on: post, by: account.id, database)
            let long = try await client.send(.get, "/comments?_limit=-1", headers: account.bearer)
            #expect(long.status == .tooManyRequests)
            #expect(long.json?["message"]?.string?.contains("_limit") == true)
            // A short list, even asked for with -1, needs no slot.
            let short = try await client.send(.get, "/comments?_limit=-1&id=\(post)", headers: account.bearer)
            #expect(short.status == .ok)
            let page = try await client.send(.get, "/comments?_limit=100", headers: account.bearer)
            #expect(page.status == .ok && page.json?.array?.count == 100)
        }
    }

    @Test func slotsAreCountedPerAccountAndInAllAndComeBackWhenDropped() {
        let slots = LargeListSlots(.init(perAccount: 2, inAll: 3))
        var held = [slots.claim(accountID: 1), slots.claim(accountID: 1)]
        #expect(held.allSatisfy { $0 != nil })
        #expect(slots.claim(accountID: 1) == nil)
        held.append(slots.claim(accountID: 2))
        #expect(held.last! != nil)
        #expect(slots.claim(accountID: 3) == nil, "the process has no slot left")
        held.removeFirst()
        #expect(slots.held == 2)
        #expect(slots.claim(accountID: 1) != nil)
        held.removeAll()
        #expect(slots.held == 0)
    }

    /// A client that stops reading keeps its connection, and so would keep its slot: eight such would shut every
    /// account out of long lists. A slot stops counting after its longest hold.
    @Test func aSlotHeldPastItsLongestHoldNoLongerCounts() throws {
        let slots = LargeListSlots(.init(perAccount: 1, inAll: 1, longestHold: .seconds(120)))
        let start = ContinuousClock.now
        let stalled = try #require(slots.claim(accountID: 1, now: start))
        #expect(slots.claim(accountID: 2, now: start + .seconds(119)) == nil)
        let later = slots.claim(accountID: 2, now: start + .seconds(121))
        #expect(later != nil && later!.deadline == start + .seconds(241))
        #expect(stalled.deadline == start + .seconds(120))
    }

    @Test func aStreamPastItsSlotsDeadlineEndsTheConnectionWithoutAWholeArray() async throws {
        try await withTestApp(.live, configure: { $0.community.largeLists.longestHold = .zero }) { client, database in
            let account = try await client.signUp("tooslow")
            let post = try await client.createPost("replies", as: account)
            try await Self.addComments(150, text: "reply", on: post, by: account.id, database)
            let answer = try await RawConnection.open(port: try #require(client.port)) { connection in
                try await connection.send("GET /comments?_limit=-1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(account.token)\r\n\r\n")
                return try await connection.readUntilClosed(within: .seconds(10))
            }
            let text = try #require(answer, "the connection should be closed")
            #expect(!text.contains("}]"), "no whole array: \(text.prefix(300))")
        }
    }

    // MARK: - Helpers

    /// `count` comments in one statement: the API would take minutes for tens of thousands.
    static func addComments(_ count: Int, text: String, on postID: Int, by accountID: Int, _ database: SproutDatabase) async throws {
        let statement = SQLStatement(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
            INSERT INTO comments (comment, post_id, user_id, created_at, updated_at) SELECT $2, $3, $4, $5, $5 FROM n
            """,
            .int(count), .text(text), .int(postID), .int(accountID), .date(Date())
        )
        _ = try await database.executor.write(statement, as: SQLInt.self)
    }

    static func insertPost(_ text: String, by accountID: Int, _ database: SproutDatabase) async throws -> Int {
        let statement = SQLStatement(
            "INSERT INTO posts (text, user_id, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING id",
            .text(text), .int(accountID), .date(Date())
        )
        return try #require(try await database.executor.writeFirst(statement, as: SQLInt.self)).value
    }
}
