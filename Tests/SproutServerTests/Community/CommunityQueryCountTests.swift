import Foundation
import Testing
@testable import SproutServer

/// A page of posts costs a fixed number of statements, however many posts and comments it holds (no N+1).
@Suite struct CommunityQueryCountTests {
    @Test func aPageOfPostsWithTheirCommentsIsTwoStatements() async throws {
        try await withTestApp { client, database in
            let account = try await client.signUp("counter")
            for index in 0..<30 {
                let post = try await client.createPost("post \(index)", as: account)
                for reply in 0..<3 { try await client.createComment("reply \(reply)", on: post, as: account) }
            }
            let counting = CountingExecutor(base: database.executor)
            let repository = SQLCommunityRepository(executor: counting)
            var query = CollectionQuery()
            query.limit = 20
            let page = try await repository.posts(query, viewer: account.id)
            #expect(page.count == 20)
            #expect(page.allSatisfy { $0.comments.count == 3 })
            #expect(counting.statements == 2)

            counting.reset()
            query.limit = nil
            let all = try await repository.posts(query, viewer: account.id)
            #expect(all.count == 30)
            #expect(counting.statements == 2)

            counting.reset()
            _ = try await repository.comments(CollectionQuery(), viewer: account.id)
            #expect(counting.statements == 1)
        }
    }

    /// On SQLite a page's comments come from one index alone, without a lookup in the table for each comment
    /// (`CommunityMigrations.commentRowsByPost`).
    @Test func aPagesCommentsAreReadFromTheirIndexAloneOnSQLite() async throws {
        try await withTestApp { client, database in
            guard database.executor.dialect == .sqlite else { return }
            let account = try await client.signUp("covered")
            let post = try await client.createPost("post", as: account)
            try await client.createComment("reply", on: post, as: account)
            let counting = CountingExecutor(base: database.executor)
            var query = CollectionQuery()
            query.limit = 20
            _ = try await SQLCommunityRepository(executor: counting).posts(query, viewer: account.id)
            let comments = try #require(counting.lastRead)
            let plan = try await database.executor.read("EXPLAIN QUERY PLAN \(comments)", as: QueryPlanDetail.self).map(\.detail)
            #expect(plan.contains { $0.contains("USING COVERING INDEX comments_post_rows_idx") }, "\(plan)")
        }
    }

    /// A row of SQLite's `EXPLAIN QUERY PLAN`.
    private struct QueryPlanDetail: SQLRowDecodable {
        let detail: String
        init(row: some SQLRow) throws { detail = try row.string("detail") }
    }
}

/// Counts the statements a repository sends, then passes them on.
final class CountingExecutor: SQLExecutor, @unchecked Sendable {
    let base: any SQLExecutor
    private let lock = NSLock()
    private var count = 0
    private var last: SQLStatement?

    init(base: any SQLExecutor) { self.base = base }

    /// The last statement read.
    var lastRead: SQLStatement? { lock.withLock { last } }

    var statements: Int { lock.withLock { count } }
    func reset() { lock.withLock { count = 0 } }
    private func tick() { lock.withLock { count += 1 } }

    var dialect: SQLDialect { base.dialect }

    func read<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        tick()
        lock.withLock { last = statement }
        return try await base.read(statement, as: type)
    }

    func slowRead<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        tick()
        return try await base.slowRead(statement, as: type)
    }

    func write<Row: SQLRowDecodable>(_ statement: SQLStatement, as type: Row.Type) async throws -> [Row] {
        tick()
        return try await base.write(statement, as: type)
    }

    func writeAll(_ statements: [SQLStatement]) async throws {
        for _ in statements { tick() }
        try await base.writeAll(statements)
    }

    func writeAll(_ statements: [SQLStatement], beforeCommit: @escaping @Sendable () throws -> Void) async throws {
        for _ in statements { tick() }
        try await base.writeAll(statements, beforeCommit: beforeCommit)
    }

    func writeSequence<Row: SQLRowDecodable>(_ statements: [SQLStatement], as type: Row.Type) async throws -> [Row] {
        for _ in statements { tick() }
        return try await base.writeSequence(statements, as: type)
    }
}
