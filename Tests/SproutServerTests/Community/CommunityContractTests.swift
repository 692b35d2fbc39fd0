import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Posts and comments: Strapi v3's shapes (post → nested user + shallow comments; comment → nested user + shallow
/// post), 200 for every success, the boom errors.
@Suite struct CommunityContractTests {
    @Test func postsListMatchesTheReconstructedShape() async throws {
        let fixture = try Fixture.json("community/posts-list.reconstructed.json")
        try await withTestApp { client, _ in
            let sesac = try await client.signUp("sesac")
            let jack = try await client.signUp("jack")
            let first = try await client.createPost("첫 글입니다", as: jack)
            let second = try await client.createPost("오늘 새싹 과제 다 하신 분?", as: sesac)
            try await client.createComment("저요!", on: second, as: jack)
            let response = try await client.send(.get, "/posts?_start=0&_limit=100&_sort=created_at:desc", headers: sesac.bearer)
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json.array?.count == 2)
            #expect(json[0]?.shape == fixture[0]?.shape)
            #expect(json[1]?.shape == fixture[1]?.shape)
            #expect(json[0]?["id"]?.int == second)
            #expect(json[1]?["id"]?.int == first)
            #expect(json[0]?["user"]?["username"] == .string("sesac"))
            #expect(json[0]?["user"]?["role"] == .number(1))
            #expect(json[0]?["comments"]?[0]?["user"]?.int == jack.id)
            #expect(json[0]?["comments"]?[0]?["post"]?.int == second)
            #expect(response.headers[.cacheControl] == "private, no-store")
        }
    }

    @Test func commentsListMatchesTheReconstructedShape() async throws {
        let fixture = try Fixture.json("community/comments-list.reconstructed.json")
        try await withTestApp { client, _ in
            let sesac = try await client.signUp("sesac")
            let jack = try await client.signUp("jack")
            let post = try await client.createPost("오늘 새싹 과제 다 하신 분?", as: sesac)
            let first = try await client.createComment("저요!", on: post, as: jack)
            let second = try await client.createComment("저도요", on: post, as: sesac)
            let response = try await client.send(.get, "/comments?post=\(post)", headers: jack.bearer)
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json[0]?.shape == fixture[0]?.shape)
            #expect(json.array?.compactMap { $0["id"]?.int } == [first, second])
            #expect(json[0]?["post"]?["user"]?.int == sesac.id)
            #expect(json[0]?["user"]?["id"]?.int == jack.id)
        }
    }

    @Test func writesAnswer200WithTheEntity() async throws {
        try await withTestApp { client, _ in
            let owner = try await client.signUp("owner")
            let created = try await client.sendForm(.post, "/posts", "text=hello", headers: owner.bearer)
            #expect(created.status == .ok)
            #expect(created.json?["comments"] == .array([]))
            #expect(created.json?["user"]?["id"]?.int == owner.id)
            let id = try #require(created.json?["id"]?.int)
            let updated = try await client.sendForm(.put, "/posts/\(id)", "text=edited", headers: owner.bearer)
            #expect(updated.status == .ok)
            #expect(updated.json?["text"] == .string("edited"))
            #expect(updated.json?["created_at"] == created.json?["created_at"])

            let comment = try await client.sendForm(.post, "/comments", "comment=nice&post=\(id)", headers: owner.bearer)
            #expect(comment.status == .ok)
            #expect(comment.json?["post"]?["id"]?.int == id)
            let commentID = try #require(comment.json?["id"]?.int)
            let editedComment = try await client.sendForm(.put, "/comments/\(commentID)", "comment=nicer&post=\(id)", headers: owner.bearer)
            #expect(editedComment.json?["comment"] == .string("nicer"))
            let deletedComment = try await client.send(.delete, "/comments/\(commentID)", headers: owner.bearer)
            #expect(deletedComment.status == .ok)
            #expect(deletedComment.json?["comment"] == .string("nicer"))

            let deleted = try await client.send(.delete, "/posts/\(id)", headers: owner.bearer)
            #expect(deleted.status == .ok)
            #expect(deleted.json?["text"] == .string("edited"))
            #expect(try await client.send(.get, "/posts/\(id)", headers: owner.bearer).status == .notFound)
        }
    }

    @Test func bodiesAreReadAsFormJSONOrUnlabelled() async throws {
        try await withTestApp { client, _ in
            let owner = try await client.signUp("bodies")
            let json = try await client.send(.post, "/posts", headers: owner.bearer.merging([.contentType: "application/json"]), body: #"{"text":"제이슨"}"#)
            #expect(json.json?["text"] == .string("제이슨"))
            let unlabelled = try await client.send(.post, "/posts", headers: owner.bearer, body: "text=%EC%95%88%EB%85%95+%26+bye")
            #expect(unlabelled.json?["text"] == .string("안녕 & bye"))
            let mislabelled = try await client.send(.post, "/posts", headers: owner.bearer.merging([.contentType: "application/x-www-form-urlencoded"]), body: #"{"text":"json in a form"}"#)
            #expect(mislabelled.json?["text"] == .string("json in a form"))
        }
    }

    @Test func deletingAPostDeletesItsComments() async throws {
        try await withTestApp { client, database in
            let owner = try await client.signUp("owner")
            let other = try await client.signUp("other")
            let post = try await client.createPost("to go", as: owner)
            try await client.createComment("one", on: post, as: other)
            try await client.createComment("two", on: post, as: owner)
            let deleted = try await client.send(.delete, "/posts/\(post)", headers: owner.bearer)
            #expect(deleted.json?["comments"]?.array?.count == 2)
            #expect(try await client.send(.get, "/comments?post=\(post)", headers: owner.bearer).json == .array([]))
            let left = try await database.executor.readFirst(SQLStatement("SELECT count(*) FROM comments"), as: SQLInt.self)?.value
            #expect(left == 0)
        }
    }

    @Test func unknownIdsAnswerBoom404() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("finder")
            for path in ["/posts/999", "/posts/abc", "/comments/999", "/posts/-1"] {
                let response = try await client.send(.get, path, headers: account.bearer)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.json == .object(["statusCode": .number(404), "error": .string("Not Found"), "message": .string("Not Found")]))
            }
            #expect(try await client.sendForm(.put, "/posts/999", "text=x", headers: account.bearer).status == .notFound)
            #expect(try await client.send(.delete, "/comments/999", headers: account.bearer).status == .notFound)
        }
    }

    @Test func badInputIs400InTheBoomShape() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("writer")
            let post = try await client.createPost("exists", as: account)
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.post, "/posts", ""),
                (.post, "/posts", "text=%20%20"),
                (.post, "/posts", "text=" + String(repeating: "a", count: CommunityInput.maximumPostLength + 1)),
                (.post, "/comments", "comment=hi"),
                (.post, "/comments", "comment=hi&post=abc"),
                (.post, "/comments", "comment=hi&post=99999"),
                (.post, "/comments", "post=\(post)"),
                (.put, "/posts/\(post)", "nothing=here"),
            ]
            for (method, path, form) in cases {
                let response = try await client.sendForm(method, path, form, headers: account.bearer)
                #expect(response.status == .badRequest, "\(method) \(path) \(form.prefix(40))")
                #expect(response.json?["statusCode"]?.int == 400)
                #expect(response.json?["message"]?.string?.isEmpty == false)
            }
        }
    }

    @Test func startLimitAndSortPageThroughPosts() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("pager")
            var ids: [Int] = []
            for index in 0..<7 { ids.append(try await client.createPost("post \(index)", as: account)) }
            func page(_ query: String) async throws -> [Int] {
                let response = try await client.send(.get, "/posts?\(query)", headers: account.bearer)
                #expect(response.status == .ok, "\(query)")
                return response.json?.array?.compactMap { $0["id"]?.int } ?? []
            }
            // Created in the same millisecond or not, newest first breaks ties by id.
            #expect(try await page("_sort=created_at:desc&_start=0&_limit=3") == Array(ids.reversed()[0..<3]))
            #expect(try await page("_sort=created_at:desc&_start=3&_limit=3") == Array(ids.reversed()[3..<6]))
            #expect(try await page("_sort=created_at:asc&_limit=2") == Array(ids[0..<2]))
            #expect(try await page("_limit=-1") == ids)
            #expect(try await page("") == ids)
            #expect(try await page("_start=100") == [])
            #expect(try await page("_limit=0") == [])
            #expect(try await page("_sort=text:desc,id:asc&_limit=1") == [ids[6]])
            #expect(try await page("id=\(ids[2])") == [ids[2]])
            #expect(try await page("id_eq=\(ids[3])") == [ids[3]])
        }
    }

    @Test func theDefaultLimitIs100() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("many")
            try await database.executor.writeAll((0..<105).map { index in
                SQLStatement("INSERT INTO posts (text, user_id, created_at, updated_at) VALUES ($1, $2, $3, $3)", .text("bulk \(index)"), .int(account.id), .date(Date()))
            })
            #expect(try await client.send(.get, "/posts", headers: account.bearer).json?.array?.count == 100)
            #expect(try await client.send(.get, "/posts?_limit=-1", headers: account.bearer).json?.array?.count == 105)
            #expect(try await client.send(.get, "/posts/count", headers: account.bearer).json == .number(105))
        }
    }

    @Test func filtersAndCountsByUserAndPost() async throws {
        try await withTestApp { client, _ in
            let alice = try await client.signUp("alice")
            let bob = try await client.signUp("bob")
            let alicePost = try await client.createPost("alice's", as: alice)
            try await client.createPost("bob's", as: bob)
            try await client.createPost("bob's again", as: bob)
            try await client.createComment("c1", on: alicePost, as: bob)
            try await client.createComment("c2", on: alicePost, as: alice)
            #expect(try await client.send(.get, "/posts?user=\(bob.id)", headers: alice.bearer).json?.array?.count == 2)
            #expect(try await client.send(.get, "/posts/count?user=\(alice.id)", headers: alice.bearer).json == .number(1))
            #expect(try await client.send(.get, "/posts/count", headers: alice.bearer).json == .number(3))
            #expect(try await client.send(.get, "/comments/count?post=\(alicePost)", headers: alice.bearer).json == .number(2))
            #expect(try await client.send(.get, "/comments?user=\(bob.id)", headers: alice.bearer).json?.array?.count == 1)
        }
    }

    /// Found by the fuzzer: dates were bound as text (a 500 on PostgreSQL, never a match on SQLite).
    @Test func dateFiltersMatchTheDatesTheAPIAnswers() async throws {
        let time = TestWallClock()
        try await withTestApp(clock: time.clock) { client, _ in
            let account = try await client.signUp("dated")
            let created = try await client.sendForm(.post, "/posts", "text=dated", headers: account.bearer)
            time.advance(by: 0.003)
            try await client.createPost("later", as: account)
            let stamp = try #require(created.json?["created_at"]?.string)
            let found = try await client.send(.get, "/posts?created_at=\(stamp)", headers: account.bearer)
            #expect(found.status == .ok)
            #expect(found.json?.array?.compactMap { $0["text"]?.string } == ["dated"])
            #expect(try await client.send(.get, "/posts/count?updated_at_eq=\(stamp)", headers: account.bearer).json == .number(1))
            #expect(try await client.send(.get, "/comments/count?created_at=\(stamp)", headers: account.bearer).json == .number(0))
        }
    }

    @Test(arguments: ["created_at=yesterday", "updated_at_eq=2021-13-01T00:00:00.000Z", "_start=-1", "_start=x", "_limit=-2", "_limit=abc", "_sort=created_at:sideways", "_sort=password:asc", "user=abc", "secret=1", "_q=text"])
    func badQueryParametersAre400(query: String) async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("query")
            let response = try await client.send(.get, "/posts?\(query)", headers: account.bearer)
            #expect(response.status == .badRequest, "\(query)")
            #expect(response.json?["statusCode"]?.int == 400)
        }
    }

    @Test func datesHaveMillisecondsAndUpdatesMoveUpdatedAt() async throws {
        let time = TestWallClock()
        try await withTestApp(clock: time.clock) { client, _ in
            let account = try await client.signUp("clock")
            let created = try await client.sendForm(.post, "/posts", "text=v1", headers: account.bearer)
            let id = try #require(created.json?["id"]?.int)
            let stamp = try #require(created.json?["created_at"]?.string)
            #expect(stamp.wholeMatch(of: AccountsContractTests.strapiTimestamp) != nil)
            time.advance(by: 0.005)
            let updated = try await client.sendForm(.put, "/posts/\(id)", "text=v2", headers: account.bearer)
            let before = try #require(created.json?["updated_at"]?.string)
            let after = try #require(updated.json?["updated_at"]?.string)
            #expect(after > before)
        }
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for field in other { merged[field.name] = field.value }
        return merged
    }
}
