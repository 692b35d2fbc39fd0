import Foundation
import SproutKit
import Testing

/// `PagedList`, the paging every list store uses: next page, end of list, refresh, a failing page, stale answers
/// dropped, one load at a time, de-duplication and `fill`.
@MainActor
@Suite struct PagedListTests {
    struct Row: Identifiable, Sendable, Equatable {
        let id: Int
    }

    /// A server list paged by offset; records every request, can fail the next one or hold its answers.
    @MainActor
    final class Server {
        var rows: [Row]
        let pageSize: Int
        var requests: [PageRequest] = []
        var failures: [APIError] = []
        let gate = AnswerGate()

        init(count: Int, pageSize: Int = 10) {
            rows = (1...count).map(Row.init(id:))
            self.pageSize = pageSize
        }

        var fetch: PagedList<Row>.Fetch {
            { (request) throws(APIError) in
                self.requests.append(request)
                let rows = self.rows
                let failure = self.failures.isEmpty ? nil : self.failures.removeFirst()
                await self.gate.passThrough()
                if let failure { throw failure }
                let page = Array(rows.dropFirst(request.offset).prefix(self.pageSize))
                return .init(items: page, hasMore: request.offset + page.count < rows.count, total: rows.count)
            }
        }
    }

    /// What a closure saw, kept on the main actor.
    @MainActor
    final class Log<Value> {
        var values: [Value] = []
    }

    /// Waits (up to five seconds) until `condition` holds.
    func until(_ condition: () -> Bool) async throws {
        for _ in 0..<500 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw StubError.timedOut
    }

    @Test func pagesFollowEachOtherToTheEndOfTheList() async {
        let server = Server(count: 25)
        let list = PagedList<Row>()
        #expect(!list.hasMore && !list.hasLoaded)
        await list.start(server.fetch, clearing: true)
        #expect(list.items.map(\.id) == Array(1...10) && list.hasLoaded && list.hasMore && list.total == 25)
        await list.loadMore()
        #expect(list.items.map(\.id) == Array(1...20) && list.hasMore)
        await list.loadMore()
        #expect(list.items.map(\.id) == Array(1...25) && !list.hasMore && list.loadState == .idle)
        await list.loadMore()
        #expect(server.requests.map(\.offset) == [0, 10, 20] && server.requests.map(\.isFirst) == [true, false, false])
    }

    @Test func refreshReplacesTheItemsOnceTheFirstPageArrives() async throws {
        let server = Server(count: 25)
        let list = PagedList<Row>()
        await list.start(server.fetch, clearing: true)
        await list.loadMore()
        server.rows.insert(Row(id: 100), at: 0)
        server.gate.hold()
        let refreshing = Task { await list.refresh() }
        try await until { server.requests.count == 3 }
        #expect(list.loadState == .refreshing && list.items.count == 20)
        server.gate.release()
        await refreshing.value
        #expect(list.items.map(\.id) == [100] + Array(1...9) && list.loadState == .idle && list.total == 26)
        await list.loadMore()
        #expect(server.requests.last?.offset == 10 && list.items.count == 20)
    }

    @Test func aFailingPageKeepsWhatIsShownAndReportsOnce() async {
        let server = Server(count: 25)
        let list = PagedList<Row>()
        let reported = Log<Int?>()
        list.onFailure = { reported.values.append($0.statusCode) }
        await list.start(server.fetch, clearing: true)
        server.failures = [.status(code: 500, message: nil, fieldErrors: [:], body: Data())]
        await list.loadMore()
        #expect(list.items.count == 10 && list.lastError?.statusCode == 500 && reported.values == [500] && list.loadState == .idle)
        await list.loadMore()
        #expect(list.items.count == 20 && list.lastError == nil && reported.values == [500])
        server.failures = [.cancelled]
        await list.loadMore()
        #expect(list.items.count == 20 && list.lastError == nil && reported.values == [500])
    }

    @Test func anAnswerToAnOlderStartIsDropped() async throws {
        let old = Server(count: 25)
        let new = Server(count: 3)
        new.rows = [Row(id: 201), Row(id: 202), Row(id: 203)]
        let list = PagedList<Row>()
        old.gate.hold()
        let stale = Task { await list.start(old.fetch, clearing: true) }
        try await until { old.requests.count == 1 }
        await list.start(new.fetch, clearing: true)
        old.gate.release()
        await stale.value
        #expect(list.items.map(\.id) == [201, 202, 203] && !list.hasMore && list.total == 3)
        #expect(list.loadState == .idle)
    }

    @Test func aLoadMoreWhileAPageLoadsSendsNothing() async throws {
        let server = Server(count: 25)
        let list = PagedList<Row>()
        await list.start(server.fetch, clearing: true)
        server.gate.hold()
        let first = Task { await list.loadMore() }
        try await until { server.requests.count == 2 }
        let second = Task { await list.loadMore() }
        try await Task.sleep(for: .milliseconds(20))
        server.gate.release()
        await first.value
        await second.value
        #expect(server.requests.count == 2 && list.items.count == 20)
    }

    @Test func itemsThatComeAgainAreShownOnceAndInsertsMoveTheOffset() async {
        let server = Server(count: 25)
        let list = PagedList<Row>()
        await list.start(server.fetch, clearing: true)
        // A row added on the server shifts its pages: row 10 comes again on the next page.
        server.rows.insert(Row(id: 100), at: 0)
        await list.loadMore()
        #expect(list.items.map(\.id) == Array(1...19))
        list.insert(Row(id: 300), at: 0)
        #expect(list.remove(id: 5) && !list.remove(id: 5))
        #expect(list.replace(Row(id: 300)) && !list.replace(Row(id: 999)))
        await list.loadMore()
        #expect(server.requests.last?.offset == 20 && server.requests.last?.loadedCount == 19)
    }

    @Test func fillFetchesUntilEnoughNewItemsArrived() async {
        let list = PagedList<Row>()
        list.fill = .init(minimumNewItems: 3, maximumFetches: 5)
        let requests = Log<PageRequest>()
        // After the first, every page brings one new row and two already shown.
        let fetch: PagedList<Row>.Fetch = { (request) throws(APIError) in
            requests.values.append(request)
            guard !request.isFirst else { return .init(items: [Row(id: 1), Row(id: 2)], hasMore: true) }
            return .init(items: [Row(id: 1), Row(id: 2), Row(id: request.loadedCount + 1)], hasMore: true)
        }
        await list.start(fetch, clearing: true)
        #expect(list.items.map(\.id) == [1, 2])
        await list.loadMore()
        #expect(list.items.map(\.id) == [1, 2, 3, 4, 5])
        #expect(requests.values.map(\.fetchesInLoad) == [0, 0, 1, 2] && requests.values.map(\.addedByLastFetch) == [0, 0, 1, 1])
        list.fill = .init(minimumNewItems: 100, maximumFetches: 2)
        await list.loadMore()
        #expect(requests.values.count == 6 && list.items.count == 7)
    }

    @Test func clearStopsListing() async {
        let server = Server(count: 25)
        let list = PagedList<Row>()
        await list.start(server.fetch, clearing: true)
        list.clear()
        #expect(list.items.isEmpty && !list.hasLoaded && !list.hasMore)
        await list.refresh()
        await list.loadMore()
        #expect(server.requests.count == 1)
    }
}
