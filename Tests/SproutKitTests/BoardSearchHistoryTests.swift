import Foundation
import SproutKit
import SproutWire
import Testing

/// `BoardSearchHistory`: one entry per (text, target), most recent first, delete, clear, a cap, and a file
/// database that survives reopening.
@Suite struct BoardSearchHistoryTests {
    static func pairs(_ history: BoardSearchHistory) throws -> [String] {
        try history.entries().map { "\($0.target.rawValue):\($0.text)" }
    }

    @Test func savingAKnownPairMovesItToTheTopWithoutADuplicate() throws {
        let history = try BoardSearchHistory()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try history.save(BoardSearchQuery(text: "공지", target: .all), at: start)
        try history.save(BoardSearchQuery(text: "공지", target: .title), at: start.addingTimeInterval(1))
        try history.save(BoardSearchQuery(text: "회의", target: .writer), at: start.addingTimeInterval(2))
        #expect(try Self.pairs(history) == ["writer:회의", "title:공지", "all:공지"])
        // The same pair again (typed with spaces): moved up, its date updated, still one entry.
        try history.save(BoardSearchQuery(text: "  공지 ", target: .all), at: start.addingTimeInterval(3))
        #expect(try Self.pairs(history) == ["all:공지", "writer:회의", "title:공지"])
        #expect(try history.entries().first?.searchedAt == start.addingTimeInterval(3))
    }

    @Test func searchesInTheSameInstantKeepTheirOrder() throws {
        let history = try BoardSearchHistory()
        let now = Date()
        for text in ["하나", "둘", "셋"] { try history.save(BoardSearchQuery(text: text, target: .contents), at: now) }
        #expect(try history.entries().map(\.text) == ["셋", "둘", "하나"])
    }

    @Test func emptyTextIsIgnored() throws {
        let history = try BoardSearchHistory()
        #expect(try !history.save(BoardSearchQuery(text: "  \n", target: .all)))
        #expect(try history.entries().isEmpty)
    }

    @Test func oneEntryIsDeletedByItsPairAndAllAreCleared() throws {
        let history = try BoardSearchHistory()
        try history.save(BoardSearchQuery(text: "공지", target: .all))
        try history.save(BoardSearchQuery(text: "공지", target: .title))
        try history.save(BoardSearchQuery(text: "점심", target: .all))
        #expect(try history.delete(BoardSearchQuery(text: "공지", target: .all)))
        #expect(try !history.delete(BoardSearchQuery(text: "공지", target: .all)))
        #expect(try Self.pairs(history) == ["all:점심", "title:공지"])
        try history.removeAll()
        #expect(try history.entries().isEmpty)
    }

    @Test func theOldestEntriesBeyondTheCapacityAreDropped() throws {
        let history = try BoardSearchHistory(capacity: 3)
        for number in 1...5 { try history.save(BoardSearchQuery(text: "검색 \(number)", target: .all)) }
        #expect(try history.entries().map(\.text) == ["검색 5", "검색 4", "검색 3"])
        // Searching a kept one again keeps it; the oldest other one goes when a new one comes.
        try history.save(BoardSearchQuery(text: "검색 3", target: .all))
        try history.save(BoardSearchQuery(text: "검색 6", target: .all))
        #expect(try history.entries().map(\.text) == ["검색 6", "검색 3", "검색 5"])
        #expect(try BoardSearchHistory().capacity == 50)
    }

    @Test func theHistorySurvivesReopeningItsFile() throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        let date = Date(timeIntervalSince1970: 1_700_000_123)
        do {
            let history = try BoardSearchHistory(path: path)
            try history.save(BoardSearchQuery(text: "공지", target: .title), at: date)
            try history.save(BoardSearchQuery(text: "회의", target: .writer), at: date)
        }
        let reopened = try BoardSearchHistory(path: path)
        #expect(try reopened.entries() == [
            BoardSearchEntry(text: "회의", target: .writer, searchedAt: date),
            BoardSearchEntry(text: "공지", target: .title, searchedAt: date),
        ])
    }
}
