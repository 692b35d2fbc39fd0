import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Moderators and admins pin posts (`PUT|DELETE …/posts/{id}/pin`, `?pinned=true` lists them) and edit the notices
/// of read-only boards that someone else wrote; each change has its audit entry. The list itself stays newest first
/// (the contract), so the original apps see what they always saw.
@Suite struct BoardPinTests {
    static func staff(_ client: some TestClientProtocol, _ database: SproutDatabase, _ name: String, role: AccountRole = .moderator) async throws -> TestAccount {
        let account = try await client.signUp(name)
        _ = try await AccountAdministration(database: database, passwordHashCost: 4).setRole(name, role, by: .commandLine())
        return account
    }

    static func pin(_ client: some TestClientProtocol, _ post: Int, board: Int = SeedBoard.free, as account: TestAccount, _ pinned: Bool = true) async throws -> (status: HTTPResponse.Status, json: JSON?) {
        let response = try await client.send(pinned ? .put : .delete, "/api/v2/boards/\(board)/posts/\(post)/pin", headers: account.bearer)
        return (response.status, response.json)
    }

    static func ids(_ client: some TestClientProtocol, _ query: String, board: Int = SeedBoard.free, as account: TestAccount) async throws -> [Int] {
        let response = try await client.send(.get, "/api/v2/boards/\(board)/posts?\(query)", headers: account.bearer)
        return response.json?["value"]?.array?.compactMap { $0["postId"]?.int } ?? []
    }

    static func audit(_ database: SproutDatabase, _ action: String) async throws -> [AuditRecord] {
        try await AuditTrail(database: database, configuration: SproutConfiguration()).list(AuditFilter(action: action))
    }

    @Test func pinnedPostsListNewestPinFirstWhileTheBoardStaysNewestFirst() async throws {
        try await withTestApp { client, database in
            let writer = try await client.signUp("writer")
            let moderator = try await Self.staff(client, database, "moder")
            var posts: [Int] = []
            for title in ["첫 글", "둘째 글", "셋째 글"] {
                posts.append(try #require(try await client.writePost(title, "내용", as: writer)["postId"]?.int))
            }
            let pinned = try await Self.pin(client, posts[0], as: moderator)
            #expect(pinned.status == .ok && pinned.json?["isPinned"] == .bool(true) && pinned.json?["postId"]?.int == posts[0])
            #expect(try await Self.pin(client, posts[2], as: moderator).status == .ok)
            #expect(try await Self.pin(client, posts[2], as: moderator).status == .ok, "pinning again changes nothing")

            #expect(try await Self.ids(client, "pinned=true", as: writer) == [posts[2], posts[0]])
            let list = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts", headers: writer.bearer)
            #expect(list.json?["value"]?.array?.compactMap { $0["postId"]?.int } == posts.reversed())
            #expect(list.json?["value"]?[1]?["isPinned"] == nil, "absent when not pinned")
            #expect(list.json?["value"]?[2]?["isPinned"] == .bool(true))

            let unpinned = try await Self.pin(client, posts[2], as: moderator, false)
            #expect(unpinned.status == .ok && unpinned.json?["isPinned"] == nil)
            #expect(try await Self.ids(client, "pinned=true", as: writer) == [posts[0]])

            // A hidden post leaves the pinned list as it leaves the board.
            _ = try await Moderation(database: database, configuration: SproutConfiguration()).apply(.hide, to: .boardPost, ids: [posts[0]], by: .commandLine())
            #expect(try await Self.ids(client, "pinned=true", as: writer) == [])

            let pins = try await Self.audit(database, "board-post.pin")
            #expect(pins.map(\.target) == ["board-post:\(posts[2])", "board-post:\(posts[0])"])
            #expect(pins.allSatisfy { $0.actor == "moder" && $0.requestID != nil })
            #expect(try await Self.audit(database, "board-post.unpin").map(\.target) == ["board-post:\(posts[2])"])
        }
    }

    @Test func onlyModeratorsAndAdminsPinAndOnlyPostsTheySee() async throws {
        let token = "mailplug-static-token-0123456789"
        try await withTestApp(configure: { $0.board.apiToken = token }) { client, database in
            let writer = try await client.signUp("writer")
            let admin = try await Self.staff(client, database, "boss", role: .admin)
            let post = try #require(try await client.writePost("글", "내용", as: writer)["postId"]?.int)
            let refused = try await Self.pin(client, post, as: writer)
            #expect(refused.status == .forbidden && refused.json?["message"]?.string != nil)
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            #expect(try await client.send(.put, "/api/v2/boards/\(SeedBoard.free)/posts/\(post)/pin", headers: bearer).status == .forbidden)
            #expect(try await client.send(.put, "/api/v2/boards/\(SeedBoard.free)/posts/\(post)/pin").status == .unauthorized)
            #expect(try await Self.pin(client, 999, as: admin).status == .notFound)
            #expect(try await Self.pin(client, post, board: SeedBoard.anonymous, as: admin).status == .notFound, "another board's post")
            _ = try await Moderation(database: database, configuration: SproutConfiguration()).apply(.hide, to: .boardPost, ids: [post], by: .commandLine())
            #expect(try await Self.pin(client, post, as: admin).status == .notFound, "a hidden post")

            // The boards say who may manage them.
            let boards = try await client.send(.get, "/api/v2/boards", headers: admin.bearer)
            #expect(boards.json?["value"]?[1]?["capability"]?["manageable"] == .bool(true))
            let mine = try await client.send(.get, "/api/v2/boards", headers: writer.bearer)
            #expect(mine.json?["value"]?[1]?["capability"]?["manageable"] == .bool(false))
            #expect(boards.json?["value"]?[0]?["capability"]?["editsOthersPosts"] == .bool(true), "공지사항, read-only")
            #expect(boards.json?["value"]?[1]?["capability"]?["editsOthersPosts"] == nil, "자유게시판")
            #expect(mine.json?["value"]?[0]?["capability"]?["editsOthersPosts"] == nil)

            for bad in ["pinned=maybe", "pinned=true&search=abc"] {
                let response = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts?\(bad)", headers: writer.bearer)
                #expect(response.status == .badRequest, "\(bad)")
            }
            #expect(try await Self.audit(database, "board-post.pin").isEmpty)
        }
    }

    @Test func aBoardShowsAtMostTenPinnedPosts() async throws {
        try await withTestApp { client, database in
            let moderator = try await Self.staff(client, database, "moder")
            var posts: [Int] = []
            for number in 1...11 { posts.append(try #require(try await client.writePost("공지 \(number)", "내용", as: moderator)["postId"]?.int)) }
            for post in posts.prefix(10) { #expect(try await Self.pin(client, post, as: moderator).status == .ok) }
            let full = try await Self.pin(client, posts[10], as: moderator)
            #expect(full.status == .conflict && full.json?["message"]?.string?.contains("10") == true)
            #expect(try await Self.pin(client, posts[0], as: moderator, false).status == .ok)
            #expect(try await Self.pin(client, posts[10], as: moderator).status == .ok)
            #expect(try await Self.ids(client, "pinned=true&limit=100", as: moderator).count == 10)
            #expect(try await Self.ids(client, "pinned=true&offset=8", as: moderator).count == 2)
        }
    }

    @Test func moderatorsEditNoticesTheyDidNotWriteAndEachEditIsAudited() async throws {
        try await withTestApp { client, database in
            let admin = try await Self.staff(client, database, "boss", role: .admin)
            let moderator = try await Self.staff(client, database, "moder")
            let user = try await client.signUp("reader")
            let notice = try #require(try await client.writePost("점검 안내", "토요일 10시", board: SeedBoard.notices, as: admin)["postId"]?.int)
            let path = "/api/v2/boards/\(SeedBoard.notices)/posts/\(notice)"
            var headers = moderator.bearer
            headers[.contentType] = "application/json"
            let edited = try await client.send(.put, path, headers: headers, body: #"{"title": "점검 안내 (변경)", "contents": "일요일 10시"}"#)
            #expect(edited.status == .ok && edited.json?["title"] == .string("점검 안내 (변경)") && edited.json?["isOwner"] == .bool(false))
            #expect(edited.json?["writer"]?["displayName"] == .string("boss"), "the notice keeps its writer")
            let same = try await client.send(.put, path, headers: headers, body: #"{"title": "점검 안내 (변경)", "contents": "일요일 10시"}"#)
            #expect(same.status == .ok)
            let entries = try await Self.audit(database, "board-post.edit")
            #expect(entries.count == 1, "an edit that changes nothing is not recorded")
            #expect(entries.first?.target == "board-post:\(notice)" && entries.first?.actor == "moder")
            #expect(entries.first?.changes["title"] == AuditEntry.Change(before: "점검 안내", after: "점검 안내 (변경)"))
            #expect(entries.first?.changes["contents"] == AuditEntry.Change(before: "토요일 10시", after: "일요일 10시"))

            // Not a user's edit of a notice, nor a moderator's of a post in a board everyone writes in.
            var userHeaders = user.bearer
            userHeaders[.contentType] = "application/json"
            #expect(try await client.send(.put, path, headers: userHeaders, body: #"{"title": "t", "contents": "c"}"#).status == .forbidden)
            let free = try #require(try await client.writePost("내 글", "내용", as: user)["postId"]?.int)
            let other = try await client.send(.put, "/api/v2/boards/\(SeedBoard.free)/posts/\(free)", headers: headers, body: #"{"title": "t", "contents": "c"}"#)
            #expect(other.status == .forbidden)
            #expect(try await client.send(.put, "/api/v2/boards/\(SeedBoard.notices)/posts/999", headers: headers, body: #"{"title": "t", "contents": "c"}"#).status == .notFound)
        }
    }
}
