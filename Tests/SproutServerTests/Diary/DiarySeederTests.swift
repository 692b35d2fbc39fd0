import Foundation
import SproutWire
import Testing
@testable import SproutServer

@Suite struct DiarySeederTests {
    /// `sprout seed --diary-entries` writes through the repository: the entries are listed newest first, one a day,
    /// and a device syncing from scratch receives them all; none carries made-up weather.
    @Test func seededEntriesAreOneADayWithoutWeatherAndReachSync() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("demo1")
            let now = Date()
            #expect(try await DiarySeeder(database: database).seed(entries: 5, for: "demo1", now: now) == 5)
            let page = try await client.diary(.get, "/api/diary/entries", as: account).decode(DiaryPageJSON.self)
            #expect(page.total == 5 && page.entries.allSatisfy { $0.weather == nil && !$0.title.isEmpty && !$0.body.isEmpty })
            let days = page.entries.compactMap { DiaryTimestamp.milliseconds(from: $0.createdAt) }
            #expect(days.first == DiaryTimestamp.milliseconds(of: now) && zip(days, days.dropFirst()).allSatisfy { $0 - $1 == 86_400_000 })
            #expect(try await client.diaryChanges(since: DiaryTest.epoch, as: account).changes.count == 5)
        }
    }
}
