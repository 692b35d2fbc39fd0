import Foundation
import HTTPTypes
import Testing
@testable import SproutServer

/// A common word's total is counted once per version of the board and kept; every later page reads it and scans
/// only as far as its page. The kept total must stay exact: each write, edit and delete in the board moves the
/// version (a view does not), and pages cut by the scan hold exactly the matches a full LIKE would list.
@Suite struct BoardCommonSearchTests {
    /// What a plain LIKE over the whole board matches, newest first: the definition the searches must meet.
    private func oracle(_ word: String, target: String, database: SproutDatabase) async throws -> [Int] {
        let columns = target == "all" ? ["title_folded", "contents_folded", "writer_folded"] : ["\(target)_folded"]
        let condition = columns.map { "\($0) LIKE $2" }.joined(separator: " OR ")
        return try await database.executor.read(SQLStatement(
            "SELECT id FROM board_posts WHERE board_id = $1 AND (\(condition)) ORDER BY id DESC", .int(SeedBoard.free), .text("%\(word)%")
        ), as: SQLInt.self).map(\.value)
    }

    private func keptTotals(_ database: SproutDatabase) async throws -> Int {
        try await database.executor.readFirst(SQLStatement("SELECT count(*) FROM board_search_totals"), as: SQLInt.self)?.value ?? 0
    }

    private func version(_ database: SproutDatabase) async throws -> Int {
        try await database.executor.readFirst(SQLStatement("SELECT version FROM board_counts WHERE board_id = $1", .int(SeedBoard.free)), as: SQLInt.self)?.value ?? -1
    }

    @Test func aCommonWordsTotalIsKeptPerBoardVersionAndItsPagesAreExact() async throws {
        try await withTestApp { client, database in
            let writer = try await client.signUp("writer")
            try await BoardSeeder(database: database).seed(posts: 2_000, authors: ["writer"])
            for target in ["all", "contents", "title"] {
                let expected = try await oracle("swift", target: target, database: database)
                #expect(expected.count >= SQLBoardRepository.keptTotalMinimum || target == "title")
                let first = try await client.searchBoard("Swift", target: target, as: writer)
                #expect(first.total == expected.count && first.ids == Array(expected.prefix(30)), "\(target)")
                // Later pages, near the start, in the middle and at the very end, read the kept total.
                for offset in [30, expected.count / 2, max(0, expected.count - 7)] {
                    let page = try await client.searchBoard("swift", target: target, as: writer, offset: offset, limit: 30)
                    #expect(page.total == expected.count && page.ids == Array(expected.dropFirst(offset).prefix(30)), "\(target) at \(offset)")
                }
                let beyond = try await client.searchBoard("swift", target: target, as: writer, offset: expected.count, limit: 30)
                #expect(beyond.ids.isEmpty && beyond.total == expected.count)
            }
            // Title matches are fewer than the minimum here: counted each time, not kept.
            #expect(try await keptTotals(database) == 2)

            // A view changes nothing searched: the version stays, so does the kept total.
            let before = try await version(database)
            let newest = try await oracle("swift", target: "all", database: database)[0]
            _ = try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts/\(newest)", headers: writer.bearer)
            #expect(try await version(database) == before)

            // A new match, an edit that removes one, a deletion: each total exact right after.
            let created = try #require(try await client.writePost("새 글", "swift 이야기", as: writer)["postId"]?.int)
            #expect(try await client.searchBoard("swift", as: writer).total == (try await oracle("swift", target: "all", database: database)).count)
            var json = writer.bearer
            json[.contentType] = "application/json"
            _ = try await client.send(.put, "/api/v2/boards/\(SeedBoard.free)/posts/\(created)", headers: json, body: #"{"title": "새 글", "contents": "다른 이야기"}"#)
            let afterEdit = try await oracle("swift", target: "all", database: database)
            #expect(try await client.searchBoard("swift", as: writer, offset: 30).ids == Array(afterEdit.dropFirst(30).prefix(30)))
            #expect(try await client.searchBoard("swift", as: writer).total == afterEdit.count)
            _ = try await client.send(.delete, "/api/v2/boards/\(SeedBoard.free)/posts/\(afterEdit[0])", headers: writer.bearer)
            let afterDelete = try await oracle("swift", target: "all", database: database)
            #expect(try await client.searchBoard("swift", as: writer).total == afterDelete.count)
            #expect(try await client.searchBoard("swift", as: writer, offset: 60).ids == Array(afterDelete.dropFirst(60).prefix(30)))
            #expect(try await version(database) > before)
        }
    }
}
