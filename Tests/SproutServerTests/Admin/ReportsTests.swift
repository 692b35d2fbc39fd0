import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// `POST /api/reports` and the queue: anyone signed in reports what they can see, once per item while the report is
/// open; acting on the item resolves its reports.
@Suite struct ReportsTests {
    private func report(_ client: some TestClientProtocol, _ body: String, as account: TestAccount?) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: JSON?) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let account { headers[.authorization] = "Bearer \(account.token)" }
        return try await client.send(.post, "/api/reports", headers: headers, body: body)
    }

    @Test func aSignedInPersonReportsAnItemOnceWhileTheReportIsOpen() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("author")
            let first = try await client.signUp("first")
            let second = try await client.signUp("second")
            let post = try await client.createPost("수상한 글", as: author)

            let filed = try await report(client, #"{"kind": "post", "id": \#(post), "reason": "스팸이에요"}"#, as: first)
            #expect(filed.status == .created)
            #expect(filed.json?["kind"]?.string == "post" && filed.json?["target_id"]?.int == post && filed.json?["reason"]?.string == "스팸이에요")
            let again = try await report(client, #"{"kind": "post", "id": \#(post), "reason": "또"}"#, as: first)
            #expect(again.status == .created && again.json?["id"]?.int == filed.json?["id"]?.int)
            #expect(try await report(client, #"{"kind": "post", "id": \#(post), "reason": "저도요"}"#, as: second).status == .created)

            let queue = try await Reports(database: database).queue()
            #expect(queue.count == 1 && queue[0].reporters == 2 && queue[0].latestReason == "저도요" && queue[0].excerpt == "수상한 글")

            let moderation = Moderation(database: database, configuration: SproutConfiguration())
            _ = try await moderation.apply(.hide, to: .post, ids: [post], by: AuditActor(name: "cli:tester", accountID: nil))
            #expect(try await Reports(database: database).queue().isEmpty)
            // Hidden now: the item is not there for anyone but its author.
            #expect(try await report(client, #"{"kind": "post", "id": \#(post), "reason": "다시"}"#, as: first).status == .notFound)
            #expect(try await report(client, #"{"kind": "post", "id": \#(post), "reason": "내 글"}"#, as: author).status == .created)
        }
    }

    @Test func refusalsSayWhy() async throws {
        try await withTestApp { client, _ in
            let someone = try await client.signUp("someone")
            let post = try await client.createPost("글", as: someone)
            #expect(try await report(client, #"{"kind": "post", "id": \#(post), "reason": "x"}"#, as: nil).status == .unauthorized)
            #expect(try await report(client, #"{"kind": "video", "id": \#(post), "reason": "x"}"#, as: someone).status == .badRequest)
            #expect(try await report(client, #"{"kind": "post", "id": \#(post), "reason": "   "}"#, as: someone).status == .badRequest)
            #expect(try await report(client, #"{"kind": "post", "id": \#(post)}"#, as: someone).status == .badRequest)
            #expect(try await report(client, #"{"kind": "comment", "id": 999, "reason": "x"}"#, as: someone).status == .notFound)
            #expect(try await report(client, #"{"kind": "board-post", "id": 999, "reason": "x"}"#, as: someone).status == .notFound)
            #expect(try await report(client, #"{"kind": "product", "id": 999, "reason": "x"}"#, as: someone).status == .notFound)
            let long = String(repeating: "가", count: 1_001)
            #expect(try await report(client, #"{"kind": "post", "id": \#(post), "reason": "\#(long)"}"#, as: someone).status == .badRequest)
        }
    }

    @Test func oneAccountFilesAtMostThirtyReportsAnHour() async throws {
        try await withTestApp { client, _ in
            let author = try await client.signUp("author")
            let reporter = try await client.signUp("reporter")
            var posts: [Int] = []
            for index in 0..<31 { posts.append(try await client.createPost("글 \(index)", as: author)) }
            for post in posts.prefix(30) {
                #expect(try await report(client, #"{"kind": "post", "id": \#(post), "reason": "x"}"#, as: reporter).status == .created)
            }
            #expect(try await report(client, #"{"kind": "post", "id": \#(posts[30]), "reason": "x"}"#, as: reporter).status == .tooManyRequests)
        }
    }
}
