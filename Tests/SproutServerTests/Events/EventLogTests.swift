import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing
@testable import SproutServer

/// The event log's triggers: every change a list shows is one event under its topic, numbered in order per topic,
/// whichever path made it; a change no list shows (a view) is none; old events are pruned past the kept window.
@Suite struct EventLogTests {
    static func events(_ database: SproutDatabase, _ topic: String) async throws -> [String] {
        try await EventLog(executor: database.executor).events(in: topic, after: 0).map { "\($0.seq) \($0.action) \($0.item)" }
    }

    @Test func everyChangeIsOneEventNumberedInItsTopic() async throws {
        try await withTestApp { client, database in
            let writer = try await client.signUp("writer")
            let post = try await client.createPost("글", as: writer)
            let comment = try await client.createComment("댓글", on: post, as: writer)
            #expect(try await client.send(.put, "/posts/\(post)", headers: [.authorization: "Bearer \(writer.token)", .contentType: "application/json"],
                                          body: #"{"text": "고친 글"}"#).status == .ok)
            #expect(try await client.send(.delete, "/posts/\(post)", headers: writer.bearer).status == .ok)
            // The post's deletion takes its comment with it: that is an event too.
            let community = try await Self.events(database, "community")
            #expect(Array(community.prefix(3)) == ["1 post.created \(post)", "2 comment.created \(comment)", "3 post.updated \(post)"])
            #expect(Set(community.dropFirst(3)) == ["4 comment.deleted \(comment)", "5 post.deleted \(post)"]
                || Set(community.dropFirst(3)) == ["4 post.deleted \(post)", "5 comment.deleted \(comment)"], "\(community)")
            let comments = try await EventLog(executor: database.executor).events(in: "community", after: 0).filter { $0.action.hasPrefix("comment.") }
            #expect(comments.allSatisfy { $0.parent == post }, "a comment's event names its post")

            let boardPost = try #require(try await client.writePost("제목", "내용", as: writer)["postId"]?.int)
            #expect(try await client.send(.get, "/api/v2/boards/\(SeedBoard.free)/posts/\(boardPost)", headers: writer.bearer).status == .ok)
            #expect(try await Self.events(database, "board:\(SeedBoard.free)") == ["1 board-post.created \(boardPost)"], "a view is no event")

            let todo = try await client.createTodo("오늘의 할 일 하나")
            #expect(try await Self.events(database, "todos:shared") == ["1 todo.created \(todo)"])

            let entry = "0F8FAD5B-D9CB-469F-A165-70867728950E"
            let put = try await client.diary(.put, "/api/diary/entries/\(entry)", body: #"{"title": "일기", "body": "", "weather": null}"#, as: writer)
            #expect(put.status == .created, "\(put.status)")
            #expect(try await Self.events(database, "diary:\(writer.id)").count == 1)

            let vendor = try await client.makeVendor("seller")
            let product = try await client.registerProduct(as: vendor)["id"]!.int!
            let market = try await Self.events(database, "market")
            #expect(market == ["1 product.created \(product)"], "\(market)")

            // The console's hide is a change like any other.
            _ = try await Moderation(database: database, configuration: SproutConfiguration()).apply(.hide, to: .boardPost, ids: [boardPost], by: .commandLine())
            #expect(try await Self.events(database, "board:\(SeedBoard.free)").last == "2 board-post.updated \(boardPost)")
            #expect(try await EventLog(executor: database.executor).lastSeq(of: "board:\(SeedBoard.free)") == 2)
        }
    }

    /// Writers racing on one topic get its numbers one each, with no gap and no repeat (on PostgreSQL the topic's
    /// row queues them), and the log holds one event per write.
    @Test func concurrentWritersOfOneTopicGetEveryNumberOnce() async throws {
        try await withTestApp { client, database in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 1...40 { group.addTask { try await client.createTodo("동시에 쓰는 일 \(number)") } }
                try await group.waitForAll()
            }
            let events = try await EventLog(executor: database.executor).events(in: "todos:shared", after: 0)
            #expect(events.map(\.seq) == Array(1...40))
            #expect(Set(events.map(\.item)).count == 40)
        }
    }

    /// `sprout serve`'s pruner runs the pruning on its own, and stops when its task is cancelled.
    @Test func theServeProcessPrunesTheLogByItself() async throws {
        try await withTestApp { _, database in
            let old = Date().addingTimeInterval(-EventLog.keptFor - 60)
            try await database.executor.writeAll([
                """
                INSERT INTO event_log (topic, seq, action, item, parent, at) VALUES
                  ('market', 1, 'product.created', '1', NULL, \(bind: old)),
                  ('market', \(bind: 1 + EventLog.keptPerTopic), 'product.created', '2', NULL, \(bind: old))
                """,
            ])
            let log = EventLog(executor: database.executor)
            let pruner = Task { try await EventLogPruner(log: log, logger: Logger(label: "test"), interval: .milliseconds(20)).run() }
            defer { pruner.cancel() }
            var waited = 0
            while try await log.oldestSeq(of: "market") == 1, waited < 250 {
                try await Task.sleep(for: .milliseconds(20))
                waited += 1
            }
            #expect(try await log.oldestSeq(of: "market") == 1 + EventLog.keptPerTopic)
        }
    }

    @Test func eventsPastTheWindowArePrunedButATopicsNewestAreKept() async throws {
        try await withTestApp { client, database in
            for number in 1...3 { try await client.createTodo("오늘의 할 일 \(number)") }
            let log = EventLog(executor: database.executor)
            #expect(try await log.prune(now: Date().addingTimeInterval(3_600)) == 0, "the newest 10,000 of a topic stay however old")
            // A topic 10,000 events further on: its first three are now past the count, not yet past the time.
            try await database.executor.writeAll([
                """
                INSERT INTO event_log (topic, seq, action, item, parent, at)
                VALUES ('todos:shared', \(bind: 3 + EventLog.keptPerTopic), 'todo.created', '0', NULL, \(bind: Date()))
                """,
            ])
            #expect(try await log.prune(now: Date()) == 0, "younger than ten minutes: kept")
            #expect(try await log.prune(now: Date().addingTimeInterval(EventLog.keptFor + 60)) == 3)
            #expect(try await log.oldestSeq(of: "todos:shared") == 3 + EventLog.keptPerTopic)
            #expect(try await log.lastSeq(of: "todos:shared") == 3 + EventLog.keptPerTopic)
        }
    }
}
