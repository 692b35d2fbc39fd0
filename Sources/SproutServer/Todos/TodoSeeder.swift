import Foundation
import SproutWire

/// Demo todos for `sprout seed`: Korean and English titles, some done, created over the past weeks.
public struct TodoSeeder: Sendable {
    let database: SproutDatabase

    public init(database: SproutDatabase) {
        self.database = database
    }

    static let titles = [
        "장보기 목록 정리하기", "Review the weekly todo list", "운동 30분 하기", "Call the dentist about the todo appointment",
        "책 한 챕터 읽기", "Write the project README", "분리수거 하기", "Plan the weekend trip",
        "이메일 답장 보내기", "Fix the leaking kitchen tap", "세탁물 찾아오기", "Prepare slides for Monday",
    ]

    /// Inserts `count` todos into the shared list in batches (one multi-row INSERT each; the counts and the
    /// search index follow through their triggers), reporting progress after each batch.
    public func seed(count: Int, now: Date = Date(), progress: @Sendable (Int) -> Void = { _ in }) async throws {
        let batchSize = 500
        let start = now.truncatedToSeconds.addingTimeInterval(-Double(count) * 60)
        var inserted = 0
        while inserted < count {
            let size = min(batchSize, count - inserted)
            let rows = (0..<size).map { offset -> SQLStatement in
                let number = inserted + offset + 1
                let title = "Todo #\(number): \(Self.titles[number % Self.titles.count])"
                // One minute apart, oldest first, so ids and created_at agree as they would in real use.
                let createdAt = start.addingTimeInterval(Double(number) * 60)
                return "(\(bind: title), \(bind: Todo.fold(title)), \(bind: number % 3 == 0), \(bind: createdAt), \(bind: createdAt))"
            }
            let statement: SQLStatement = """
                INSERT INTO todos (title, title_folded, is_done, created_at, updated_at) VALUES \(.joined(rows, separator: ", "))
                """
            try await database.executor.writeAll([statement])
            inserted += size
            progress(inserted)
        }
        // Fresh planner statistics: right after a bulk insert PostgreSQL still believes the table is nearly
        // empty and sorts whole lists instead of walking their index, until autovacuum gets round to it.
        try await database.executor.writeAll(["ANALYZE todos"])
    }
}
