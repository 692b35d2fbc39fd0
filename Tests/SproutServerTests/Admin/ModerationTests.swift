import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// `Moderation` (the console's and `sprout moderate`'s hide, restore, delete): a hidden item is gone from every
/// list, search, total and detail for everyone but its author, who sees it marked; every change has exactly one
/// audit entry and resolves the item's reports.
@Suite struct ModerationTests {
    private static let moderator = AuditActor(name: "cli:tester", accountID: nil, client: "local", userAgent: "tests")

    private func auditCount(_ database: SproutDatabase, action: String, target: String) async throws -> Int {
        try await database.executor.readFirst(
            "SELECT count(*) FROM audit_log WHERE action = \(bind: action) AND target = \(bind: target)", as: SQLInt.self
        )?.value ?? -1
    }

    @Test func aHiddenCommunityPostAndCommentAreTheirAuthorsAloneAndMarked() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("author")
            let reader = try await client.signUp("reader")
            let post = try await client.createPost("광고 글", as: author)
            let kept = try await client.createPost("좋은 글", as: author)
            let comment = try await client.createComment("광고 댓글", on: kept, as: author)
            let moderation = Moderation(database: database, configuration: SproutConfiguration())
            #expect(try await moderation.apply(.hide, to: .post, ids: [post], by: Self.moderator) == [post])
            #expect(try await moderation.apply(.hide, to: .comment, ids: [comment], by: Self.moderator) == [comment])

            #expect(try await client.send(.get, "/posts/\(post)", headers: reader.bearer).status == .notFound)
            #expect(try await client.send(.get, "/posts/count", headers: reader.bearer).json?.int == 1)
            #expect(try await client.send(.get, "/posts", headers: reader.bearer).json?.array?.map { $0["id"]?.int } == [kept])
            #expect(try await client.send(.get, "/posts/\(kept)", headers: reader.bearer).json?["comments"]?.array?.count == 0)
            #expect(try await client.send(.get, "/comments/\(comment)", headers: reader.bearer).status == .notFound)
            #expect(try await client.send(.get, "/comments/count", headers: reader.bearer).json?.int == 0)
            // Nobody comments on what they cannot see.
            #expect(try await client.sendForm(.post, "/comments", "comment=hi&post=\(post)", headers: reader.bearer).status == .badRequest)

            let own = try await client.send(.get, "/posts/\(post)", headers: author.bearer)
            #expect(own.status == .ok && own.json?["hidden"]?.bool == true)
            #expect(try await client.send(.get, "/posts/count", headers: author.bearer).json?.int == 2)
            #expect(try await client.send(.get, "/comments/\(comment)", headers: author.bearer).json?["hidden"]?.bool == true)
            #expect(try await client.send(.get, "/posts/\(kept)", headers: author.bearer).json?["hidden"] == nil)

            #expect(try await moderation.apply(.restore, to: .post, ids: [post], by: Self.moderator) == [post])
            #expect(try await client.send(.get, "/posts/\(post)", headers: reader.bearer).status == .ok)
            #expect(try await auditCount(database, action: "content.hide", target: "post:\(post)") == 1)
            #expect(try await auditCount(database, action: "content.restore", target: "post:\(post)") == 1)
            // Asking again changes nothing and records nothing.
            #expect(try await moderation.apply(.restore, to: .post, ids: [post], by: Self.moderator) == [])
            #expect(try await auditCount(database, action: "content.restore", target: "post:\(post)") == 1)
        }
    }

    @Test func aHiddenProductLeavesTheListSearchAndTotalAndOnlyItsVendorSeesIt() async throws {
        try await withTestApp { client, database in
            let vendor = try await client.makeVendor("seller")
            let hidden = try await client.registerProduct(as: vendor, name: "가짜 명품")["id"]!.int!
            let shown = try await client.registerProduct(as: vendor, name: "진짜 사과")["id"]!.int!
            let moderation = Moderation(database: database, configuration: SproutConfiguration())
            #expect(try await moderation.apply(.hide, to: .product, ids: [hidden], by: Self.moderator) == [hidden])

            let page = try await client.send(.get, "/api/products?page_no=1&items_per_page=10")
            #expect(page.json?["total_count"]?.int == 1)
            #expect(page.json?["pages"]?.array?.map { $0["id"]?.int } == [shown])
            #expect(try await client.send(.get, "/api/products?page_no=1&items_per_page=10&search_value=%EB%AA%85%ED%92%88").json?["total_count"]?.int == 0)
            #expect(try await client.send(.get, "/api/products/\(hidden)").status == .notFound)
            let stranger = try await client.signUp("stranger")
            #expect(try await client.send(.get, "/api/products/\(hidden)", headers: stranger.bearer).status == .notFound)

            let own = try await client.send(.get, "/api/products/\(hidden)", headers: vendor.account.bearer)
            #expect(own.status == .ok && own.json?["hidden"]?.bool == true)
            #expect(own.headers[.cacheControl] == "private, no-store")
            #expect(try await client.send(.get, "/api/products/\(hidden)", headers: vendor.identifierHeader).json?["hidden"]?.bool == true)

            #expect(try await moderation.apply(.restore, to: .product, ids: [hidden], by: Self.moderator) == [hidden])
            #expect(try await client.send(.get, "/api/products?page_no=1&items_per_page=10").json?["total_count"]?.int == 2)
            #expect(try await moderation.apply(.delete, to: .product, ids: [hidden], by: Self.moderator) == [hidden])
            #expect(try await client.send(.get, "/api/products?page_no=1&items_per_page=10").json?["total_count"]?.int == 1)
            #expect(try await auditCount(database, action: "content.delete", target: "product:\(hidden)") == 1)
        }
    }

    @Test func aHiddenBoardPostLeavesTheBoardItsSearchAndItsTotal() async throws {
        try await withTestApp { client, database in
            let writer = try await client.signUp("writer")
            let reader = try await client.signUp("reader")
            let hidden = try await client.writePost("도배 광고", "광고입니다", as: writer)["postId"]!.int!
            let shown = try await client.writePost("질문", "안녕하세요", as: writer)["postId"]!.int!
            let moderation = Moderation(database: database, configuration: SproutConfiguration())
            #expect(try await moderation.apply(.hide, to: .boardPost, ids: [hidden], by: Self.moderator) == [hidden])

            let list = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts?offset=0&limit=30", headers: reader.bearer)
            #expect(list.json?["total"]?.int == 1)
            #expect(list.json?["value"]?.array?.map { $0["postId"]?.int } == [shown])
            let search = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts?offset=0&limit=30&search=%EA%B4%91%EA%B3%A0&searchTarget=all", headers: reader.bearer)
            #expect(search.json?["total"]?.int == 0)
            #expect(try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts/\(hidden)", headers: reader.bearer).status == .notFound)
            let own = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts/\(hidden)", headers: writer.bearer)
            #expect(own.status == .ok && own.json?["hidden"]?.bool == true)

            #expect(try await moderation.apply(.delete, to: .boardPost, ids: [hidden], by: Self.moderator) == [hidden])
            // A deleted hidden post was out of the count already: the total stays right.
            #expect(try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts?offset=0&limit=30", headers: reader.bearer).json?["total"]?.int == 1)
        }
    }

    @Test func aThousandItemsAreHiddenInOneCallWithAnEntryEach() async throws {
        try await withTestApp { client, database in
            let author = try await client.signUp("prolific")
            let statements: [SQLStatement] = (1...1_000).map { index in
                "INSERT INTO posts (text, user_id, created_at, updated_at) VALUES (\(bind: "글 \(index)"), \(bind: author.id), \(bind: Date()), \(bind: Date()))"
            }
            try await database.executor.writeAll(statements)
            let ids = try await database.executor.read("SELECT id FROM posts ORDER BY id", as: SQLInt.self).map(\.value)
            let moderation = Moderation(database: database, configuration: SproutConfiguration())
            #expect(try await moderation.apply(.hide, to: .post, ids: ids, by: Self.moderator).count == 1_000)
            #expect(try await database.executor.readFirst("SELECT count(*) FROM audit_log WHERE action = 'content.hide'", as: SQLInt.self)?.value == 1_000)
            #expect(try await database.executor.readFirst("SELECT count(*) FROM posts WHERE hidden_at IS NULL", as: SQLInt.self)?.value == 0)
            await #expect(throws: ModerationError.tooMany(1_001)) {
                try await moderation.apply(.hide, to: .post, ids: Array(1...1_001), by: Self.moderator)
            }
        }
    }

    @Test func theModerationListFiltersByAuthorTextReportsAndHiddenAndPagesByID() async throws {
        try await withTestApp { client, database in
            let spammer = try await client.signUp("spammer")
            let regular = try await client.signUp("regular")
            var spam: [Int] = []
            for index in 0..<3 { spam.append(try await client.createPost("싼 광고 \(index) 100% 할인", as: spammer)) }
            let fine = try await client.createPost("오늘 날씨 좋네요", as: regular)
            _ = try await client.send(.post, "/api/reports", headers: [.authorization: "Bearer \(regular.token)", .contentType: "application/json"],
                                      body: #"{"kind": "post", "id": \#(spam[0]), "reason": "광고"}"#)
            _ = try await Moderation(database: database, configuration: SproutConfiguration()).apply(.hide, to: .post, ids: [spam[1]], by: Self.moderator)
            let queue = ModerationQueue(database: database)
            #expect(try await queue.items(ModerationFilter(kind: .post)).map(\.id) == [fine, spam[2], spam[1], spam[0]])
            #expect(try await queue.items(ModerationFilter(kind: .post, author: "spammer")).count == 3)
            #expect(try await queue.items(ModerationFilter(kind: .post, text: "100%")).map(\.id) == [spam[2], spam[1], spam[0]])
            #expect(try await queue.items(ModerationFilter(kind: .post, text: "0%")).count == 3)
            #expect(try await queue.items(ModerationFilter(kind: .post, text: "_")).isEmpty)
            let reported = try await queue.items(ModerationFilter(kind: .post, onlyReported: true))
            #expect(reported.map(\.id) == [spam[0]] && reported.first?.openReports == 1)
            let hidden = try await queue.items(ModerationFilter(kind: .post, onlyHidden: true))
            #expect(hidden.map(\.id) == [spam[1]] && hidden.first?.hiddenAt != nil)
            #expect(try await queue.items(ModerationFilter(kind: .post, beforeID: spam[2], limit: 1)).map(\.id) == [spam[1]])
        }
    }

    @Test func theAuditLogRefusesEdits() async throws {
        try await withTestApp { client, database in
            try await client.signUp("someone")
            _ = try await AccountAdministration(database: database, passwordHashCost: 4).setRole("someone", .moderator, by: Self.moderator)
            await #expect(throws: (any Error).self) {
                try await database.executor.writeAll(["UPDATE audit_log SET actor = 'nobody'"])
            }
            #expect(try await AuditTrail(database: database, configuration: SproutConfiguration()).list(AuditFilter()).map(\.actor) == ["cli:tester"])
        }
    }
}
