import Foundation
import SproutWire

/// Demo diary entries for `sprout seed --diary-entries`: one a day ending today, in the first demo account's
/// diary, written through the repository like any client's (so the clock and `since` see them). No weather: a
/// demo entry has no place or time at which weather was observed, and Sprout never makes weather up.
public struct DiarySeeder: Sendable {
    let database: SproutDatabase

    public init(database: SproutDatabase) {
        self.database = database
    }

    static let moods = ["맑은 하루", "비 오는 저녁", "산책", "새 프로젝트", "주말 여행", "도서관에서", "친구와 점심", "조용한 밤"]
    static let lines = [
        "아침에 일찍 일어나 커피를 내렸다.", "오후에는 밀린 코드 리뷰를 끝냈다.", "저녁 하늘이 유난히 붉었다.",
        "오랜만에 긴 글을 읽었다.", "내일은 조금 더 일찍 시작해야겠다.", "작은 일에도 감사한 하루였다.",
    ]

    /// Adds `count` entries to `username`'s diary (the account must exist); answers how many were written.
    @discardableResult
    public func seed(entries count: Int, for username: String, now: Date = Date()) async throws -> Int {
        let executor = database.executor
        guard let account = try await executor.readFirst("SELECT id FROM accounts WHERE username = \(bind: username)", as: SQLInt.self) else {
            throw SQLRowError.missingReturnedRow
        }
        let repository = SQLDiaryRepository(executor: executor)
        // Several writes in flight, so the writer's group commit (on either database) shares one commit among them:
        // one at a time, each waited for its own fsync on PostgreSQL.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for day in 0..<count {
                if day >= Self.writesInFlight { try await group.next() }
                let write = Self.entry(day: day, of: count, now: now)
                group.addTask { _ = try await repository.put(accountID: account.value, id: UUID().uuidString.lowercased(), write: write, now: now) }
            }
            try await group.waitForAll()
        }
        return count
    }

    static let writesInFlight = 16

    /// Day `day` of `count` days ending `now`.
    private static func entry(day: Int, of count: Int, now: Date) -> DiaryWrite {
        let created = now.addingTimeInterval(-Double(count - 1 - day) * 86_400)
        let body = (0..<3).map { lines[(day + $0 * 2) % lines.count] }.joined(separator: "\n")
        return DiaryWrite(
            title: "\(moods[day % moods.count]) (\(day + 1)일째)", body: body,
            createdMilliseconds: Int(DiaryTimestamp.milliseconds(of: created)), weather: .keep, baseMilliseconds: nil
        )
    }
}
