import Foundation
import Testing
@testable import SproutServer
import SproutWire

/// Pages cut from kept page marks (`ListPageMarks`) must be the same slices OFFSET gives, and a mark read before a
/// write must never cut a page after it.
@Suite struct TodoPageMarksTests {
    /// Every list shape the list call offers, for the shared list and one account's.
    static let lists: [(owner: TodoOwner, request: TodoPageRequest)] = {
        var lists: [(TodoOwner, TodoPageRequest)] = []
        for owner in [TodoOwner.anonymous, .account(7)] {
            for sortField in [TodoSortField.createdAt, .updatedAt] {
                for order in [TodoSortOrder.newestFirst, .oldestFirst] {
                    for isDone in [nil, true, false] {
                        lists.append((owner, TodoPageRequest(sortField: sortField, order: order, isDone: isDone)))
                    }
                }
            }
        }
        return lists
    }()

    @Test func markedPagesAreTheSlicesOffsetGivesAfterEveryKindOfWrite() async throws {
        try await withTestApp { _, database in
            // A stride of 3 and pages of 4 put page starts on, between and just after marks.
            let marks = ListPageMarks(stride: 3, rebuildInterval: .zero)
            let repository = SQLTodoRepository(executor: database.executor, pageMarks: marks)
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            var ids: [TodoOwner: [Int]] = [:]
            for owner in [TodoOwner.anonymous, .account(7)] {
                for number in 0..<17 {
                    // Runs of equal timestamps, so ties are broken by id across mark boundaries.
                    let todo = try await repository.create(
                        title: "marked \(number)", isDone: number % 3 == 0, owner: owner, at: base + Double(number / 4)
                    )
                    ids[owner, default: []].append(todo.id)
                }
            }
            try await expectEveryPageMatches(repository, database)

            let anonymous = ids[.anonymous]!
            _ = try await repository.create(title: "a new one", isDone: false, owner: .anonymous, at: base + 2)
            try await expectEveryPageMatches(repository, database)
            _ = try await repository.update(id: anonymous[5], with: TodoChanges(title: "edited"), owner: .anonymous, at: base + 100)
            try await expectEveryPageMatches(repository, database)
            _ = try await repository.update(id: anonymous[8], with: TodoChanges(isDone: false), owner: .anonymous, at: base + 100)
            try await expectEveryPageMatches(repository, database)
            _ = try await repository.delete(id: anonymous[0], owner: .anonymous)
            _ = try await repository.delete(id: ids[.account(7)]![16], owner: .account(7))
            try await expectEveryPageMatches(repository, database)
            #expect(marks.marks(for: TodoList(request: TodoPageRequest(), owner: .anonymous).key) != nil)
        }
    }

    /// With rebuilding held off, a write makes the kept marks stale: the next page must come from OFFSET, exact,
    /// and the stale marks must be dropped rather than used again.
    @Test func staleMarksAreNeverUsed() async throws {
        try await withTestApp { _, database in
            let marks = ListPageMarks(stride: 2, rebuildInterval: .seconds(3_600))
            let repository = SQLTodoRepository(executor: database.executor, pageMarks: marks)
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            var ids: [Int] = []
            for number in 0..<9 {
                ids.append(try await repository.create(title: "stale \(number)", isDone: false, owner: .anonymous, at: base + Double(number)).id)
            }
            let request = TodoPageRequest(page: 2, perPage: 3)
            let key = TodoList(request: request, owner: .anonymous).key
            #expect(try await repository.page(request, owner: .anonymous).todos.map(\.id) == [ids[5], ids[4], ids[3]])
            let kept = try #require(marks.marks(for: key))

            _ = try await repository.delete(id: ids[7], owner: .anonymous)
            #expect(try await repository.page(request, owner: .anonymous).todos.map(\.id) == [ids[4], ids[3], ids[2]])
            #expect(marks.marks(for: key) == nil)

            // A title edit moves `updated_at`, and with it the list's version.
            _ = try await repository.update(id: ids[1], with: TodoChanges(title: "moved"), owner: .anonymous, at: base + 50)
            let byUpdate = TodoPageRequest(page: 1, perPage: 2, sortField: .updatedAt)
            #expect(try await repository.page(byUpdate, owner: .anonymous).todos.map(\.id) == [ids[1], ids[8]])
            #expect(kept.total == 9)
        }
    }

    @Test func theListVersionMovesWithEveryWriteThatCanMoveARowAndNotOtherwise() async throws {
        try await withTestApp { _, database in
            let repository = SQLTodoRepository(executor: database.executor)
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            func version() async throws -> Int {
                let statement: SQLStatement = "SELECT version FROM (\(TodoList(request: TodoPageRequest(), owner: .anonymous).countsQuery)) AS c"
                return try #require(try await database.executor.readFirst(statement, as: SQLInt.self)).value
            }
            var last = try await version()
            func expectMoved(_ moved: Bool, _ what: Testing.Comment) async throws {
                let now = try await version()
                #expect((now > last) == moved, what)
                last = now
            }
            let todo = try await repository.create(title: "versioned", isDone: false, owner: .anonymous, at: base)
            try await expectMoved(true, "create")
            _ = try await repository.update(id: todo.id, with: TodoChanges(title: "versioned", isDone: false), owner: .anonymous, at: base + 10)
            try await expectMoved(false, "an edit that changes nothing")
            _ = try await repository.update(id: todo.id, with: TodoChanges(title: "renamed"), owner: .anonymous, at: base + 20)
            try await expectMoved(true, "a title edit (moves updated_at)")
            _ = try await repository.update(id: todo.id, with: TodoChanges(isDone: true), owner: .anonymous, at: base + 30)
            try await expectMoved(true, "is_done")
            _ = try await repository.create(title: "someone else's", isDone: false, owner: .account(3), at: base)
            try await expectMoved(false, "a write to another owner's list")
            _ = try await repository.delete(id: todo.id, owner: .anonymous)
            try await expectMoved(true, "delete")
        }
    }

    /// A burst of creates in one second is a run of equal timestamps longer than the stride. Marks inside such a
    /// run are known as such, their pages are still OFFSET's slices, and on SQLite the statement for them seeks
    /// into the run by id (the plain row-value statement walked the run from its end: thousands of rows a page).
    @Test func pagesInsideALongRunOfEqualTimestampsSeekIntoItByID() async throws {
        try await withTestApp { _, database in
            let marks = ListPageMarks(stride: 3, rebuildInterval: .zero)
            let repository = SQLTodoRepository(executor: database.executor, pageMarks: marks)
            let base = Date(timeIntervalSince1970: 1_700_000_000)
            var ids: [Int] = []
            for number in 0..<12 {
                // Rows 2…9 share one second.
                let second = number < 2 ? number : number < 10 ? 2 : number - 7
                ids.append(try await repository.create(title: "burst \(number)", isDone: false, owner: .anonymous, at: base + Double(second)).id)
            }
            try await expectEveryPageMatches(repository, database)

            // Newest first, the marks (every third row) are rows 11, 8, 5 and 2; 5 and 2 share 8's second.
            let list = TodoList(request: TodoPageRequest(), owner: .anonymous)
            let kept = try #require(marks.marks(for: list.key))
            #expect(kept.ids == [ids[11], ids[8], ids[5], ids[2]])
            #expect(kept.inLongRuns == [ids[5], ids[2]])
            #expect(marks.start(ofRow: 7, in: kept) == .init(markID: ids[5], skip: 1, inLongRun: true))

            if database.executor.dialect == .sqlite {
                let page = ListPager.markedPageInLongRun(list, markID: ids[5], version: kept.version, skip: 1, limit: 4)
                let plan = try await database.executor.read("EXPLAIN QUERY PLAN \(page)", as: QueryPlanStep.self).map(\.detail)
                #expect(plan.contains { $0.contains("created_at=? AND id<?") }, "\(plan)")
            }
        }
    }

    @Test func marksPlacePagesByStride() {
        let marks = ListPageMarks(stride: 10)
        let kept = ListPageMarks.Marks(version: 4, total: 25, ids: [90, 80, 70])
        #expect(marks.start(ofRow: 0, in: kept) == .init(markID: 90, skip: 0))
        #expect(marks.start(ofRow: 19, in: kept) == .init(markID: 80, skip: 9))
        #expect(marks.start(ofRow: 24, in: kept) == .init(markID: 70, skip: 4))
        #expect(marks.start(ofRow: 25, in: kept) == .init(markID: nil, skip: 0))
        #expect(marks.start(ofRow: 20, in: .init(version: 4, total: 25, ids: [90, 80])) == nil)
    }

    @Test func onlyOneCallerBuildsAListsMarksAndOldListsAreForgotten() {
        let marks = ListPageMarks(stride: 10, capacity: 2, rebuildInterval: .seconds(60))
        let start = ContinuousClock.now
        #expect(marks.claimBuild(of: "a", now: start))
        #expect(!marks.claimBuild(of: "a", now: start + .seconds(1)))
        #expect(marks.claimBuild(of: "a", now: start + .seconds(61)))
        marks.store(.init(version: 1, total: 0, ids: []), for: "a")
        #expect(!marks.claimBuild(of: "a", now: start + .seconds(200)), "fresh marks are not rebuilt")
        marks.discard("a", readAt: 0)
        #expect(marks.marks(for: "a") != nil, "marks of a newer version are kept")
        marks.discard("a", readAt: 1)
        #expect(marks.marks(for: "a") == nil)
        #expect(marks.claimBuild(of: "b", now: start + .seconds(2)))
        #expect(marks.claimBuild(of: "c", now: start + .seconds(3)))
        #expect(marks.claimBuild(of: "a", now: start + .seconds(300)), "a was the oldest and was forgotten")
    }

    /// A row of SQLite's `EXPLAIN QUERY PLAN`.
    private struct QueryPlanStep: SQLRowDecodable {
        let detail: String
        init(row: some SQLRow) throws { detail = try row.string("detail") }
    }

    private func expectEveryPageMatches(
        _ repository: SQLTodoRepository, _ database: SproutDatabase, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for (owner, shape) in Self.lists {
            let list = TodoList(request: shape, owner: owner)
            let statement: SQLStatement = "SELECT id FROM todos WHERE \(list.filter) ORDER BY \(raw: list.order())"
            let expected = try await database.executor.read(statement, as: SQLInt.self).map(\.value)
            // Twice: the first read may build the marks, the second must use them.
            for _ in 0..<2 {
                var seen: [Int] = []
                for page in 1...(expected.count / 4 + 2) {
                    var request = shape
                    request.page = page
                    request.perPage = 4
                    let result = try await repository.page(request, owner: owner)
                    #expect(result.total == expected.count, "\(list.key) page \(page)", sourceLocation: sourceLocation)
                    seen += result.todos.map(\.id)
                }
                #expect(seen == expected, "\(list.key)", sourceLocation: sourceLocation)
            }
        }
    }
}
