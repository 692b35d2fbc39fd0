import Foundation
import SproutKit
import SproutWire
import Testing

/// The original app's `sample.json`: 15 entries whose `created_at` is Unix seconds (2020-12-22T15:35:33Z, not the
/// December 2051 a default `JSONDecoder` makes of it), imported as new entries to be pushed.
@MainActor
@Suite struct DiarySampleImporterTests {
    @Test func theSampleIsFifteenEntriesOf22December2020() throws {
        let samples = try DiarySampleImporter.read(try FixtureFile.data("Diary/sample.json"))
        #expect(samples.count == 15)
        #expect(samples.allSatisfy { $0.createdAt == Date(timeIntervalSince1970: 1_608_651_333) })
        #expect(DiaryTimestamp.string(from: samples[0].createdAt) == "2020-12-22T15:35:33.000Z")
        #expect(samples[0].title == "똘기떵이호치새초미자축인묘" && samples[0].body.hasPrefix("A wonderful serenity"))
        #expect(samples.contains { $0.title == "네번째" })
    }

    @Test func importingAddsNewEntriesWithFreshIDsToBePushed() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        let data = try FixtureFile.data("Diary/sample.json")
        let imported = try DiarySampleImporter.importSample(data, into: store)
        let samples = try DiarySampleImporter.read(data)
        #expect(imported.count == 15 && store.entries.count == 15)
        #expect(Set(store.entries.map(\.id)).count == 15)
        #expect(Set(imported.map(\.id)) == Set(store.entries.map(\.id)))
        #expect(store.entries.allSatisfy { $0.createdAt == Date(timeIntervalSince1970: 1_608_651_333) && $0.hasUnpushedChanges })
        #expect(imported.map(\.title) == samples.map(\.title) && imported.map(\.body) == samples.map(\.body))
        #expect(try store.database.outbox().count == 15)

        // Importing again adds 15 more (fresh ids), as the app's DEBUG list did on every launch.
        try DiarySampleImporter.importSample(data, into: store)
        #expect(store.entries.count == 30)
    }

    @Test func theImportIsPushedWithItsOwnDates() async throws {
        let server = DiaryFakeServer()
        let database = try DiaryDatabase()
        let store = DiaryStore(database: database, syncEngine: DiarySyncEngine(database: database, client: server.client))
        try DiarySampleImporter.importSample(try FixtureFile.data("Diary/sample.json"), into: store)
        await store.sync()
        #expect(store.lastSyncError == nil && store.lastSyncReport?.created == 15)
        #expect(server.liveEntries.count == 15 && server.liveEntries.allSatisfy { $0.createdAt == "2020-12-22T15:35:33.000Z" })
        #expect(store.entries.allSatisfy { !$0.hasUnpushedChanges })
    }

    @Test func somethingElseThanTheSampleIsRefused() throws {
        let store = DiaryStore(database: try DiaryDatabase())
        #expect(throws: DecodingError.self) { try DiarySampleImporter.importSample(Data(#"{"title": "x"}"#.utf8), into: store) }
        #expect(store.entries.isEmpty)
    }
}
