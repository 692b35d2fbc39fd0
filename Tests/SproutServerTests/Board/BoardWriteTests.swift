import Foundation
import HTTPTypes
import Testing
@testable import SproutServer

/// Writing in boards: one's own posts in writable boards, replies, views, anonymous boards, and every refusal.
@Suite struct BoardWriteTests {
    @Test func writeEditAndDeleteOnesOwnPost() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("author")
            let created = try await client.writePost("  제목  ", "본문입니다", as: account)
            #expect(created["title"] == .string("제목") && created["isOwner"] == .bool(true) && created["viewCount"]?.int == 0)
            let id = try #require(created["postId"]?.int)
            var headers = account.bearer
            headers[.contentType] = "application/json"
            let path = "/api/v2/boards/\(SeedBoard.free)/posts/\(id)"
            let edited = try await client.send(.put, path, headers: headers, body: #"{"title": "고친 제목", "contents": "고친 본문"}"#)
            #expect(edited.status == .ok && edited.json?["title"] == .string("고친 제목") && edited.json?["contents"] == .string("고친 본문"))
            let deleted = try await client.raw(.delete, path, headers: account.bearer)
            #expect(deleted.status == .noContent && deleted.body.isEmpty)
            #expect(try await client.send(.get, path, headers: account.bearer).status == .notFound)
        }
    }

    @Test func detailCountsAView() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("viewer")
            let id = try #require(try await client.writePost("조회수", "세어 봅니다", as: account)["postId"]?.int)
            for expected in 1...3 {
                let response = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts/\(id)", headers: account.bearer)
                #expect(response.json?["viewCount"]?.int == expected)
            }
            // A post is found only under its own board.
            #expect(try await client.send(.get, "/api/v2/boards/\(SeedBoard.anonymous)/posts/\(id)", headers: account.bearer).status == .notFound)
        }
    }

    @Test func othersPostsReadOnlyBoardsAndBadBodiesAreRefused() async throws {
        try await withTestApp { client, _ in
            let owner = try await client.signUp("owner")
            let other = try await client.signUp("other")
            let id = try #require(try await client.writePost("내 글", "내용", as: owner)["postId"]?.int)
            var headers = other.bearer
            headers[.contentType] = "application/json"
            let path = "/api/v2/boards/\(SeedBoard.free)/posts/\(id)"
            #expect(try await client.send(.put, path, headers: headers, body: #"{"title": "남의 글", "contents": "x"}"#).status == .forbidden)
            #expect(try await client.send(.delete, path, headers: other.bearer).status == .forbidden)
            #expect(try await client.send(.put, "/api/v2/boards/\(SeedBoard.free)/posts/999", headers: headers, body: #"{"title": "t", "contents": "c"}"#).status == .notFound)
            let notice = try await client.send(.post, "/api/v2/boards/\(SeedBoard.notices)/posts", headers: headers, body: #"{"title": "공지", "contents": "x"}"#)
            #expect(notice.status == .forbidden && notice.json?["message"]?.string != nil)
            for body in [#"{"title": "", "contents": "x"}"#, #"{"title": "t"}"#, #"{"contents": "x"}"#, "{", #"{"title": "\#(String(repeating: "가", count: 201))", "contents": "x"}"#] {
                let response = try await client.send(.post, "/api/v2/boards/\(SeedBoard.free)/posts", headers: headers, body: body)
                #expect(response.status == .badRequest, "\(body)")
            }
            let unchanged = try await client.send(.get, path, headers: owner.bearer)
            #expect(unchanged.json?["title"] == .string("내 글"))
        }
    }

    @Test func anonymousBoardsHideTheWriter() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("secretive")
            let post = try await client.writePost("익명 글", "누가 썼을까요", board: SeedBoard.anonymous, as: account)
            #expect(post["writer"]?["displayName"] == .string("익명") && post["writer"]?["emailAddress"] == .string(""))
            #expect(post["isAnonymous"] == .bool(true) && post["isOwner"] == .bool(true))
            let other = try await client.signUp("curious")
            let seen = try await client.send(.get, "/api/v2/boards/\(SeedBoard.anonymous)/posts", headers: other.bearer)
            #expect(seen.json?["value"]?[0]?["writer"]?["displayName"] == .string("익명") && seen.json?["value"]?[0]?["isOwner"] == .bool(false))
        }
    }

    @Test func repliesNameTheirParent() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("replier")
            let parent = try #require(try await client.writePost("질문", "답 주세요", as: account)["postId"]?.int)
            let reply = try await client.writePost("Re: 질문", "답입니다", as: account, parent: parent)
            #expect(reply["postType"] == .string("reply") && reply["parentPostId"]?.int == parent)
            let parentNow = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts/\(parent)", headers: account.bearer)
            #expect(parentNow.json?["hasReply"] == .bool(true))
            var headers = account.bearer
            headers[.contentType] = "application/json"
            let elsewhere = try await client.send(.post, "/api/v2/boards/\(SeedBoard.anonymous)/posts", headers: headers, body: #"{"title": "t", "contents": "c", "parentPostId": \#(parent)}"#)
            #expect(elsewhere.status == .badRequest)
        }
    }

    @Test func boardAdministrationCreatesRenamesAndArchives() async throws {
        try await withTestApp { client, database in
            let administration = BoardAdministration(database: database)
            let created = try await administration.create(name: "개발 게시판", type: "normal", by: .commandLine())
            #expect(created.orderNo == 4 && created.writable)
            let renamed = try await administration.rename(id: created.id, to: "iOS 게시판", by: .commandLine())
            #expect(renamed.displayName == "iOS 게시판")
            let account = try await client.signUp("admin-watcher")
            let shown = try await client.send(.get, "/api/v2/boards", headers: account.bearer)
            #expect(shown.json?["value"]?.array?.count == 4)
            _ = try await administration.setArchived(id: created.id, true, by: .commandLine())
            let hidden = try await client.send(.get, "/api/v2/boards", headers: account.bearer)
            #expect(hidden.json?["value"]?.array?.count == 3)
            // Archived: out of the menu, still readable, written by no one.
            #expect(try await client.send(.get, "/api/v2/boards/\(created.id)/posts", headers: account.bearer).status == .ok)
            #expect(try await client.send(
                .post, "/api/v2/boards/\(created.id)/posts", headers: [.authorization: "Bearer \(account.token)", .contentType: "application/json"],
                body: #"{"title": "t", "contents": "c"}"#
            ).status == .forbidden)
            #expect(try await administration.list().count == 4)
            await #expect(throws: BoardAdministrationError.self) { try await administration.create(name: "x", type: "secret", by: .commandLine()) }
            await #expect(throws: BoardAdministrationError.self) { try await administration.rename(id: 999, to: "없음", by: .commandLine()) }
        }
    }
}
