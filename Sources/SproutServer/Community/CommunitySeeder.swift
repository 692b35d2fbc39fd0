import Foundation
import SproutWire

/// Demo accounts, posts and comments for `sprout seed` (and the feed benchmark's 10,000 posts with 100,000
/// comments). Accounts are `demo1`…`demoN` (`demoN@example.com`); ones that exist already are reused and keep
/// their password.
public struct CommunitySeeder: Sendable {
    let database: SproutDatabase

    public init(database: SproutDatabase) {
        self.database = database
    }

    public struct Result: Sendable {
        /// The demo accounts' usernames.
        public let usernames: [String]
        /// The password of the accounts this run created (nil when every one existed already).
        public let newPassword: String?
    }

    static let postTexts = [
        "오늘 새싹 과제 다 하신 분?", "첫 글입니다, 잘 부탁드려요!", "Swift concurrency 질문 있어요", "점심 뭐 드셨어요?",
        "주말에 스터디 같이 하실 분 구합니다", "Has anyone tried the new Xcode yet?", "오늘 날씨 정말 좋네요 🌱",
        "코드 리뷰 받고 싶어요", "Any tips for learning SwiftUI?", "새싹 커뮤니티 화이팅!",
    ]
    static let commentTexts = ["저요!", "좋아요 👍", "같이 해요", "Great question!", "저도 궁금해요", "감사합니다", "Me too", "화이팅!"]

    public func seed(
        accounts accountCount: Int, posts postCount: Int, comments commentCount: Int, now: Date = Date(),
        progress: @Sendable (String) -> Void = { _ in }
    ) async throws -> Result {
        let executor = database.executor
        let usernames = (1...max(1, accountCount)).map { "demo\($0)" }
        let password = ServerSecrets.randomToken(byteCount: 9)
        let hash = try await PasswordHasher().hash(password)
        let stamp = now.truncatedToMilliseconds
        var created = 0
        for username in usernames {
            let inserted = try await executor.write(
                """
                INSERT INTO accounts (username, email, password_hash, blocked, created_at, updated_at)
                VALUES (\(bind: username), \(bind: "\(username)@example.com"), \(bind: hash), NULL, \(bind: stamp), \(bind: stamp))
                ON CONFLICT DO NOTHING RETURNING id
                """,
                as: SQLInt.self
            )
            created += inserted.count
        }
        var ids: [Int] = []
        for username in usernames {
            guard let id = try await executor.readFirst("SELECT id FROM accounts WHERE username = \(bind: username)", as: SQLInt.self) else {
                throw SQLRowError.missingReturnedRow
            }
            ids.append(id.value)
        }

        // Posts a minute apart, oldest first, ending now; comments spread over them.
        let start = stamp.addingTimeInterval(-Double(postCount) * 60)
        var postIDs: [Int] = []
        var inserted = 0
        while inserted < postCount {
            let size = min(500, postCount - inserted)
            let rows = (0..<size).map { offset -> SQLStatement in
                let number = inserted + offset
                let at = start.addingTimeInterval(Double(number) * 60)
                return "(\(bind: Self.postTexts[number % Self.postTexts.count]), \(bind: ids[number % ids.count]), \(bind: at), \(bind: at))"
            }
            let statement: SQLStatement = """
                INSERT INTO posts (text, user_id, created_at, updated_at) VALUES \(.joined(rows, separator: ", ")) RETURNING id
                """
            postIDs += try await executor.write(statement, as: SQLInt.self).map(\.value)
            inserted += size
            if inserted == postCount || inserted % 5000 == 0 { progress("Seeded \(inserted)/\(postCount) posts") }
        }
        inserted = 0
        while inserted < commentCount, !postIDs.isEmpty {
            let size = min(500, commentCount - inserted)
            let rows = (0..<size).map { offset -> SQLStatement in
                let number = inserted + offset
                // A fixed stride through the posts: every post gets about the same number of comments.
                let post = postIDs[(number &* 7919) % postIDs.count]
                let at = stamp.addingTimeInterval(-Double(commentCount - number))
                let text = Self.commentTexts[number % Self.commentTexts.count]
                return "(\(bind: text), \(bind: post), \(bind: ids[(number + 1) % ids.count]), \(bind: at), \(bind: at))"
            }
            let statement: SQLStatement = """
                INSERT INTO comments (comment, post_id, user_id, created_at, updated_at) VALUES \(.joined(rows, separator: ", "))
                """
            try await executor.writeAll([statement])
            inserted += size
            if inserted == commentCount || inserted % 20000 == 0 { progress("Seeded \(inserted)/\(commentCount) comments") }
        }
        // Fresh planner statistics after a bulk insert (see TodoSeeder).
        try await executor.writeAll(["ANALYZE posts", "ANALYZE comments"])
        return Result(usernames: usernames, newPassword: created > 0 ? password : nil)
    }
}
