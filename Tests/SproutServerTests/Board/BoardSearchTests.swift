import Foundation
import HTTPTypes
import Testing
@testable import SproutServer

/// Search by target through the substring indexes: Korean substrings, Latin in any case, queries shorter than a
/// trigram, paging of results with a right total, anonymous writers, and the index in step with edits and deletes.
@Suite struct BoardSearchTests {
    @Test func eachTargetFindsSubstringsInAnyCase() async throws {
        try await withTestApp { client, _ in
            let kim = try await client.signUp("KimSwift")
            let lee = try await client.signUp("lee")
            let notice = try #require(try await client.writePost("공지사항입니다", "회의는 Monday 10시", as: kim)["postId"]?.int)
            let swift = try #require(try await client.writePost("Swift Concurrency 질문", "actor 가 헷갈려요", as: lee)["postId"]?.int)
            let lunch = try #require(try await client.writePost("점심 메뉴", "swift하게 정해요", as: lee)["postId"]?.int)
            #expect(try await client.searchBoard("공지", target: "title", as: lee).ids == [notice])
            #expect(try await client.searchBoard("사항입", target: "title", as: lee).ids == [notice])
            #expect(try await client.searchBoard("SWIFT", target: "title", as: lee).ids == [swift])
            #expect(try await client.searchBoard("swift", target: "contents", as: lee).ids == [lunch])
            #expect(try await client.searchBoard("monday", target: "contents", as: lee).ids == [notice])
            #expect(try await client.searchBoard("kimsw", target: "writer", as: lee).ids == [notice])
            #expect(try await client.searchBoard("swift", target: "all", as: lee).ids == [lunch, swift, notice])
            #expect(try await client.searchBoard("swift", as: lee).total == 3)
            // Shorter than a trigram: still right.
            #expect(try await client.searchBoard("점", target: "title", as: lee).ids == [lunch])
            #expect(try await client.searchBoard("공지", as: lee).ids == [notice])
            #expect(try await client.searchBoard("없는말", as: lee).ids == [])
            // A LIKE wildcard is text, not a wildcard.
            #expect(try await client.searchBoard("%", as: lee).ids == [])
            // Only this board.
            #expect(try await client.searchBoard("swift", board: SeedBoard.anonymous, as: lee).ids == [])
        }
    }

    /// A quote or a LIKE wildcard followed by a combining mark (an emoji skin tone, an accent) is one Swift
    /// `Character` with it: escaping by characters missed them, so the FTS5 query had an unterminated string (a
    /// 500, found by the fuzzer) and `%` matched anything.
    @Test func quotesAndWildcardsBeforeACombiningMarkAreText() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("marks")
            let quoted = try #require(try await client.writePost("say \"\u{1F3FB}hi", "본문", as: account)["postId"]?.int)
            let percent = try #require(try await client.writePost("50%\u{301} off", "본문", as: account)["postId"]?.int)
            let accented = try #require(try await client.writePost("max\u{301}", "본문", as: account)["postId"]?.int)
            #expect(try await client.searchBoard("y \"\u{1F3FB}h", target: "title", as: account).ids == [quoted])
            #expect(try await client.searchBoard("\u{12}\u{DD}\"\u{1F3FB}", target: "title", as: account).ids == [])
            #expect(try await client.searchBoard("0%\u{301} o", target: "title", as: account).ids == [percent])
            #expect(try await client.searchBoard("%\u{301}", target: "title", as: account).ids == [percent])
            #expect(try await client.searchBoard("x\u{301}", target: "title", as: account).ids == [accented])
        }
    }

    @Test func resultsArePagedWithTheirTotal() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("pager")
            var ids: [Int] = []
            for number in 1...7 { ids.append(try #require(try await client.writePost("검색 대상 \(number)", "본문", as: account)["postId"]?.int)) }
            try await client.writePost("다른 글", "본문", as: account)
            let first = try await client.searchBoard("검색 대상", target: "title", as: account, offset: 0, limit: 3)
            let third = try await client.searchBoard("검색 대상", target: "title", as: account, offset: 6, limit: 3)
            let past = try await client.searchBoard("검색 대상", target: "title", as: account, offset: 9, limit: 3)
            #expect(first.ids == Array(ids.reversed()[0..<3]) && first.total == 7)
            #expect(third.ids == [ids[0]] && third.total == 7)
            #expect(past.ids == [] && past.total == 7)
        }
    }

    @Test func anonymousWritersCannotBeFoundByName() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("hiddenname")
            let post = try #require(try await client.writePost("익명 글", "hiddenname 이 쓴 것 아님", board: SeedBoard.anonymous, as: account)["postId"]?.int)
            #expect(try await client.searchBoard("hiddenname", target: "writer", board: SeedBoard.anonymous, as: account).ids == [])
            #expect(try await client.searchBoard("익명", target: "writer", board: SeedBoard.anonymous, as: account).ids == [])
            // The contents still say what they say.
            #expect(try await client.searchBoard("hiddenname", target: "all", board: SeedBoard.anonymous, as: account).ids == [post])
        }
    }

    @Test func theIndexFollowsEditsAndDeletes() async throws {
        try await withTestApp { client, _ in
            let account = try await client.signUp("editor")
            let id = try #require(try await client.writePost("사과 판매", "맛있는 사과", as: account)["postId"]?.int)
            var headers = account.bearer
            headers[.contentType] = "application/json"
            let path = "/api/v2/boards/\(SeedBoard.free)/posts/\(id)"
            _ = try await client.send(.put, path, headers: headers, body: #"{"title": "배 판매", "contents": "달콤한 배"}"#)
            #expect(try await client.searchBoard("사과", as: account).ids == [])
            #expect(try await client.searchBoard("달콤한", target: "contents", as: account).ids == [id])
            _ = try await client.send(.delete, path, headers: account.bearer)
            #expect(try await client.searchBoard("달콤한", as: account) == ([], 0))
        }
    }
}
