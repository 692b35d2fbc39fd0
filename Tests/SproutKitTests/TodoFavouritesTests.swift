import Foundation
import SproutKit
import Testing

@Suite struct TodoFavouritesTests {
    @Test func markUnmarkAndList() throws {
        let favourites = try TodoFavourites()
        #expect(try favourites.mark(7))
        #expect(try !favourites.mark(7))
        #expect(try favourites.mark(3))
        #expect(try favourites.all() == [3, 7])
        #expect(try favourites.contains(7))
        #expect(try favourites.unmark(7))
        #expect(try !favourites.unmark(7))
        #expect(try favourites.all() == [3])
        #expect(try favourites.toggle(3) == false)
        #expect(try favourites.toggle(3) == true)
    }

    @Test func starsSurviveARestart() throws {
        let path = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        do {
            let favourites = try TodoFavourites(path: path)
            try favourites.mark(42)
            try favourites.mark(5)
        }
        let reopened = try TodoFavourites(path: path)
        #expect(try reopened.all() == [5, 42])
    }
}
