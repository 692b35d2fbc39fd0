import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// `meta.total` comes from `todo_counts`, kept by triggers: it must always equal a real COUNT over the table.
@Suite struct TodoCountsTests {
    @Test func totalsStayExactAfterCreatesEditsAndDeletes() async throws {
        try await withTestApp { client, database in
            var ids: [Int] = []
            for number in 1...6 { ids.append(try await client.createTodo("counted todo \(number)", isDone: number <= 2)) }
            try await expectTotalsMatchTheTable(client, database, all: 6, done: 2)

            // Flips both ways, a title-only edit and an edit that sets what is already there.
            #expect(try await client.sendForm(.put, "/api/v2/todos/\(ids[5])", "is_done=true").status == .ok)
            #expect(try await client.sendForm(.put, "/api/v2/todos/\(ids[0])", "is_done=false").status == .ok)
            #expect(try await client.sendForm(.put, "/api/v2/todos/\(ids[1])", "is_done=true").status == .ok)
            #expect(try await client.sendForm(.put, "/api/v2/todos/\(ids[2])", "title=renamed+counted+todo").status == .ok)
            try await expectTotalsMatchTheTable(client, database, all: 6, done: 2)

            #expect(try await client.send(.delete, "/api/v2/todos/\(ids[1])").status == .ok)
            #expect(try await client.send(.delete, "/api/v2/todos/\(ids[3])").status == .ok)
            #expect(try await client.send(.delete, "/api/v2/todos/\(ids[3])").status == .notFound)
            try await expectTotalsMatchTheTable(client, database, all: 4, done: 1)
        }
    }

    @Test func totalsStayExactUnderConcurrentWriters() async throws {
        try await withTestApp { client, database in
            var ids: [Int] = []
            for number in 1...20 { ids.append(try await client.createTodo("contended todo \(number)", isDone: number % 2 == 0)) }
            let seed = ids
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 1...20 {
                    group.addTask { try await client.createTodo("concurrent new todo \(number)", isDone: number % 3 == 0) }
                }
                for (index, id) in seed.enumerated() {
                    group.addTask {
                        // Opposite flips at once on the same two count rows, and deletes of the same todos.
                        _ = try await client.sendForm(.put, "/api/v2/todos/\(id)", "is_done=\(index % 2 == 0)")
                        if index % 4 == 0 { _ = try await client.send(.delete, "/api/v2/todos/\(id)") }
                    }
                    if index % 4 == 0 {
                        group.addTask { _ = try await client.send(.delete, "/api/v2/todos/\(id)") }
                    }
                }
                try await group.waitForAll()
            }
            let all = try await database.todoCount()
            let done = try await database.todoCount(isDone: true)
            #expect(all == 35)  // 20 + 20 created, 5 deleted
            try await expectTotalsMatchTheTable(client, database, all: all, done: done)
        }
    }

    /// Later pages are read backwards from the list's far end; every page must still be the right slice.
    @Test func everyPageIsTheRightSliceFromEitherEnd() async throws {
        try await withTestApp { client, _ in
            var ids: [Int] = []
            for number in 1...23 { ids.append(try await client.createTodo("paged todo \(number)", isDone: number % 3 == 0)) }
            for (order, expected) in [("desc", Array(ids.reversed())), ("asc", ids)] {
                for isDone in ["", "true", "false"] {
                    let wanted = expected.filter { id in
                        let number = ids.firstIndex(of: id)! + 1
                        return isDone.isEmpty || (number % 3 == 0) == (isDone == "true")
                    }
                    var seen: [Int] = []
                    for page in 1...7 {
                        let json = try await client.send(.get, "/api/v2/todos?order_by=\(order)&is_done=\(isDone)&per_page=4&page=\(page)").json
                        #expect(json?["meta"]?["total"] == .number(Double(wanted.count)))
                        seen += json?["data"]?.array?.compactMap { $0["id"]?.int } ?? []
                    }
                    #expect(seen == wanted, "order \(order), is_done \(isDone)")
                }
            }
        }
    }

    private func expectTotalsMatchTheTable(
        _ client: some TestClientProtocol, _ database: SproutDatabase, all: Int, done: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(try await database.todoCount() == all, sourceLocation: sourceLocation)
        #expect(try await database.todoCount(isDone: true) == done, sourceLocation: sourceLocation)
        let total = try await client.send(.get, "/api/v2/todos").json?["meta"]?["total"]
        let doneTotal = try await client.send(.get, "/api/v2/todos?is_done=true").json?["meta"]?["total"]
        let openTotal = try await client.send(.get, "/api/v2/todos?is_done=false").json?["meta"]?["total"]
        #expect(total == .number(Double(all)), sourceLocation: sourceLocation)
        #expect(doneTotal == .number(Double(done)), sourceLocation: sourceLocation)
        #expect(openTotal == .number(Double(all - done)), sourceLocation: sourceLocation)
    }
}
