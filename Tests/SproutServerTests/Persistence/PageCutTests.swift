import Testing
@testable import SproutServer

/// A page of a list with a known total is read from the nearer end, and past the end not at all.
@Suite struct PageCutTests {
    @Test func anEarlyPageIsReadFromTheStart() throws {
        let cut = try #require(PageCut(offset: 20, limit: 10, total: 100))
        #expect(Cut(cut) == Cut(limit: 10, offset: 20, fromTheEnd: false))
        #expect(cut.direction(descending: true) == "DESC" && cut.direction(descending: false) == "ASC")
        #expect(cut.inListOrder([1, 2, 3]) == [1, 2, 3])
    }

    @Test func aLatePageIsReadBackwardsFromTheEndAndTurnedBack() throws {
        // Rows 90..<100 of 100: skip none from the end.
        let last = try #require(PageCut(offset: 90, limit: 10, total: 100))
        #expect(Cut(last) == Cut(limit: 10, offset: 0, fromTheEnd: true))
        #expect(last.direction(descending: true) == "ASC" && last.direction(descending: false) == "DESC")
        #expect(last.inListOrder([3, 2, 1]) == [1, 2, 3])
        // Rows 60..<70: 30 rows follow the page, fewer than the 60 before it.
        #expect(Cut(PageCut(offset: 60, limit: 10, total: 100)) == Cut(limit: 10, offset: 30, fromTheEnd: true))
    }

    @Test func aPageRunningPastTheEndIsCutShort() {
        #expect(Cut(PageCut(offset: 95, limit: 10, total: 100)) == Cut(limit: 5, offset: 0, fromTheEnd: true))
    }

    @Test func aPageWithNoRowsIsNotRead() {
        #expect(PageCut(offset: 100, limit: 10, total: 100) == nil)
        #expect(PageCut(offset: 0, limit: 10, total: 0) == nil)
        #expect(PageCut(offset: 0, limit: 0, total: 10) == nil)
    }

    @Test func aWholeListHasNoLimitInEitherDialect() {
        #expect(PageCut.limitClause(limit: nil, offset: 5, dialect: .sqlite).sql == "LIMIT -1 OFFSET $1")
        #expect(PageCut.limitClause(limit: nil, offset: 5, dialect: .postgres).sql == "LIMIT ALL OFFSET $1")
    }
}

/// A cut's three numbers, to compare whole.
private struct Cut: Equatable {
    let limit: Int
    let offset: Int
    let fromTheEnd: Bool

    init(limit: Int, offset: Int, fromTheEnd: Bool) {
        self.limit = limit
        self.offset = offset
        self.fromTheEnd = fromTheEnd
    }

    init?(_ cut: PageCut?) {
        guard let cut else { return nil }
        self.init(limit: cut.limit, offset: cut.offset, fromTheEnd: cut.fromTheEnd)
    }
}
