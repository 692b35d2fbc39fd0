import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// Writes answer from what they really changed: the database decides, in one statement, under concurrency.
@Suite struct TodoWriteRaceTests {
    @Test func concurrentDeletesOfOneTodoAnswerOkExactlyOnce() async throws {
        try await withTestApp { client, database in
            let id = try await client.createTodo("deleted by many at once")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 1...16 { group.addTask { try await client.send(.delete, "/api/v2/todos/\(id)").status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1)
            #expect(statuses.filter { $0 == .notFound }.count == 15)
            #expect(try await database.todoCount() == 0)
            #expect(try await client.send(.get, "/api/v2/todos").json?["meta"]?["total"] == .number(0))
        }
    }

    /// An update that answers 200 really happened: the delete that follows it returns the updated todo. An
    /// update that lost the race answers 404.
    @Test func anUpdateRacingADeleteNeverAnswersForAGhost() async throws {
        try await withTestApp { client, database in
            for round in 1...12 {
                let id = try await client.createTodo("raced todo \(round)")
                async let update = client.sendForm(.put, "/api/v2/todos/\(id)", "title=updated+raced+todo&is_done=true")
                async let delete = client.send(.delete, "/api/v2/todos/\(id)")
                let (updated, deleted) = try await (update, delete)
                #expect(deleted.status == .ok)
                #expect([.ok, .notFound].contains(updated.status))
                if updated.status == .ok {
                    #expect(deleted.json?["data"]?["title"] == .string("updated raced todo"))
                } else {
                    #expect(deleted.json?["data"]?["title"] == .string("raced todo \(round)"))
                }
                #expect(try await client.send(.get, "/api/v2/todos/\(id)").status == .notFound)
            }
            #expect(try await database.todoCount() == 0)
        }
    }
}
