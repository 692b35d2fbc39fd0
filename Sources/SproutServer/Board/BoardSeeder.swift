import Foundation

/// Demo board posts for `sprout seed --board-posts` (and the board benchmark's 100,000): Korean and English text
/// from word lists, written by the demo accounts, a minute apart and ending now. Most go to the free board; every
/// 50th is a notice in the notice board and every 10th goes to the anonymous board; every 20th in the free board
/// replies to a post of the batch before it. Each title carries its number (`No.1234`) and each text ends `(문서 1234)`, so a search for one number
/// finds one post.
public struct BoardSeeder: Sendable {
    let database: SproutDatabase

    public init(database: SproutDatabase) {
        self.database = database
    }

    static let koreanWords = ["공지", "회의", "점심", "스터디", "질문", "답변", "프로젝트", "배포", "일정", "휴가", "코드", "리뷰", "오늘", "내일", "메일", "서버"]
    static let englishWords = ["Swift", "release", "meeting", "lunch", "review", "server", "deploy", "question", "update", "weekly", "design", "bug"]

    /// Adds `count` posts written by the accounts named (which must exist), 500 to a statement.
    public func seed(posts count: Int, authors usernames: [String], now: Date = Date(), progress: @Sendable (Int) -> Void = { _ in }) async throws {
        let executor = database.executor
        var authors: [(id: Int, name: String)] = []
        for username in usernames {
            guard let id = try await executor.readFirst("SELECT id FROM accounts WHERE username = \(bind: username)", as: SQLInt.self) else {
                throw SQLRowError.missingReturnedRow
            }
            authors.append((id.value, username))
        }
        guard !authors.isEmpty else { return }
        let start = now.addingTimeInterval(-Double(count) * 60)
        var inserted = 0
        var lastFreePost: Int?
        while inserted < count {
            let size = min(500, count - inserted)
            let rows = (0..<size).map { offset -> SQLStatement in
                let number = inserted + offset
                let author = authors[number % authors.count]
                let (board, type, anonymous): (Int, String, Bool) =
                    number % 50 == 0 ? (1, "notice", false) : number % 10 == 0 ? (3, "normal", true) : (2, "normal", false)
                let parent = board == 2 && number % 20 == 1 ? lastFreePost : nil
                let title = Self.title(number)
                let contents = Self.contents(number)
                let at = start.addingTimeInterval(Double(number) * 60)
                return """
                    (\(bind: board), \(bind: author.id), \(bind: parent), \(bind: title), \(bind: contents), \(bind: parent != nil ? "reply" : type),
                     \(bind: anonymous), \(bind: number % 97), \(bind: at), \(bind: BoardText.fold(title)), \(bind: BoardText.fold(contents)),
                     \(bind: anonymous ? "" : BoardText.fold(author.name)), \(bind: at))
                    """
            }
            let statement: SQLStatement = """
                INSERT INTO board_posts (board_id, account_id, parent_post_id, title, contents, post_type, is_anonymous,
                  view_count, created_at, title_folded, contents_folded, writer_folded, updated_at)
                VALUES \(.joined(rows, separator: ", ")) RETURNING id, board_id
                """
            let written = try await executor.write(statement, as: BoardPostKey.self)
            lastFreePost = written.filter { $0.boardID == 2 }.map(\.id).max() ?? lastFreePost
            inserted += size
            executor.noteGrowth(of: "board_posts", by: size)
            if inserted == count || inserted % 10_000 == 0 { progress(inserted) }
        }
        if executor.dialect == .postgres { try await executor.writeAll(["ANALYZE board_posts"]) }
    }

    static func title(_ number: Int) -> String {
        let korean = koreanWords[number % koreanWords.count]
        let english = englishWords[(number / 3) % englishWords.count]
        return number % 2 == 0 ? "\(korean) 안내 \(english) No.\(number)" : "\(english) \(korean) 관련 No.\(number)"
    }

    static func contents(_ number: Int) -> String {
        (0..<12).map { index in
            let seed = number &* 31 &+ index &* 7
            return index % 2 == 0 ? koreanWords[seed % koreanWords.count] : englishWords[seed % englishWords.count]
        }.joined(separator: " ") + "입니다. (문서 \(number))"
    }
}

private struct BoardPostKey: SQLRowDecodable {
    let id: Int
    let boardID: Int
    init(row: some SQLRow) throws {
        id = try row.int("id")
        boardID = try row.int("board_id")
    }
}
