import Foundation
import Synchronization
import Testing
@testable import SproutServer

/// Lookups by key that share statements (`KeyedLookupQueue`), without a database: what each statement asked for
/// and what each lookup got back.
@Suite struct KeyedLookupQueueTests {
    struct Probe: SQLRowDecodable {
        let key: Int
        init(key: Int) { self.key = key }
        init(row: some SQLRow) throws { key = try row.int("key") }
    }

    static let lookup = KeyedLookup<Probe>(
        name: "probe",
        one: { key in "SELECT key FROM probes WHERE key = \(bind: key)" },
        many: { keys in "SELECT key FROM probes WHERE key = \(keys)" },
        key: \.key
    )

    /// The keys a statement asked for: one bound integer, or `{1,2,3}` bound as text.
    static func keys(of statement: SQLStatement) -> [Int] {
        switch statement.binds.first {
        case .int(let key): [key]
        case .text(let list): list.dropFirst().dropLast().split(separator: ",").map { Int($0)! }
        default: []
        }
    }

    /// A fetch that holds its first statement until `release`, answers every key but 13, and notes each statement.
    final class HeldFetch: Sendable {
        let statements = Mutex<[SQLStatement]>([])
        let (opened, gate) = AsyncStream.makeStream(of: Void.self)
        let failing: Bool

        init(failing: Bool = false) { self.failing = failing }

        func fetch(_ statement: SQLStatement) async throws -> [Probe] {
            let isFirst = statements.withLock { statements in
                statements.append(statement)
                return statements.count == 1
            }
            if isFirst { for await _ in opened { break } }
            try Task.checkCancellation()
            if failing, !isFirst { throw FetchFailure() }
            return KeyedLookupQueueTests.keys(of: statement).filter { $0 != 13 }.map(Probe.init(key:))
        }

        func release() { gate.yield() }
    }

    struct FetchFailure: Error {}

    @Test func lookupsAskedWhileOneIsOutGoTogetherInOneStatementAndEachGetsItsOwnRow() async throws {
        let queue = KeyedLookupQueue<Probe>()
        let fetch = HeldFetch()
        let answers = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            group.addTask { (1, try await queue.row(1, by: Self.lookup, fetch: fetch.fetch)?.key) }
            while fetch.statements.withLock(\.count) == 0 { await Task.yield() }
            for key in [2, 3, 13, 3, 20] {
                group.addTask { (key, try await queue.row(key, by: Self.lookup, fetch: fetch.fetch)?.key) }
            }
            while queue.waitingCount < 5 { await Task.yield() }
            fetch.release()
            return try await group.reduce(into: [(Int, Int?)]()) { $0.append($1) }
        }
        let statements = fetch.statements.withLock { $0 }
        #expect(statements.count == 2, "the first alone, then the five that came while it was out")
        #expect(statements.first?.sql == "SELECT key FROM probes WHERE key = $1")
        #expect(statements.last?.sql == "SELECT key FROM probes WHERE key = ANY(CAST($1 AS bigint[]))")
        let shared = Self.keys(of: try #require(statements.last))
        #expect(shared == [2, 3, 13, 20], "each key once")
        let allPrepared = statements.allSatisfy { $0.isPrepared }
        #expect(allPrepared)
        for (asked, got) in answers {
            #expect(got == (asked == 13 ? nil : asked), "lookup \(asked)")
        }
        #expect(queue.waitingCount == 0)
    }

    @Test func aLookupAloneIsOneStatementOfItsOwnKey() async throws {
        let queue = KeyedLookupQueue<Probe>()
        let fetch = HeldFetch()
        fetch.release()
        for key in [5, 13, 6] {
            let row = try await queue.row(key, by: Self.lookup, fetch: fetch.fetch)
            #expect(row?.key == (key == 13 ? nil : key))
        }
        let asked = fetch.statements.withLock { $0.map(Self.keys) }
        #expect(asked == [[5], [13], [6]])
    }

    /// A statement that fails fails every lookup it was for, and the queue goes on: the next lookup is sent.
    @Test func aFailedStatementFailsEachOfItsLookupsAndTheNextOnesStillGo() async throws {
        let queue = KeyedLookupQueue<Probe>()
        let fetch = HeldFetch(failing: true)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await queue.row(1, by: Self.lookup, fetch: fetch.fetch)) != nil }
            while fetch.statements.withLock(\.count) == 0 { await Task.yield() }
            for key in [2, 3] { group.addTask { (try? await queue.row(key, by: Self.lookup, fetch: fetch.fetch)) != nil } }
            while queue.waitingCount < 2 { await Task.yield() }
            fetch.release()
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1, "the first answered, both of the shared statement failed")
        await #expect(throws: FetchFailure.self) { _ = try await queue.row(4, by: Self.lookup, fetch: fetch.fetch) }
        #expect(queue.waitingCount == 0)
    }
}

extension KeyedLookupQueueTests {
    @Test func aStatementIsForAtMostFiveHundredLookupsAndTheRestGoInTheNext() async throws {
        let queue = KeyedLookupQueue<Probe>()
        let fetch = HeldFetch()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try await queue.row(1, by: Self.lookup, fetch: fetch.fetch) }
            while fetch.statements.withLock(\.count) == 0 { await Task.yield() }
            for key in 2...601 { group.addTask { _ = try await queue.row(key, by: Self.lookup, fetch: fetch.fetch) } }
            while queue.waitingCount < 600 { await Task.yield() }
            fetch.release()
            try await group.waitForAll()
        }
        let counts = fetch.statements.withLock { $0.map { Self.keys(of: $0).count } }
        #expect(counts == [1, 500, 100])
    }

    /// The sender's request is cancelled while its statement is out: the lookups that waited for it are not failed
    /// with its cancellation but sent again, and get their rows.
    @Test func aCancelledSendersLookupsAreSentAgainNotFailed() async throws {
        let queue = KeyedLookupQueue<Probe>()
        let fetch = HeldFetch()
        let sender = Task { try await queue.row(1, by: Self.lookup, fetch: fetch.fetch) }
        while fetch.statements.withLock(\.count) == 0 { await Task.yield() }
        let waiting = Task {
            try await withThrowingTaskGroup(of: Int?.self) { group in
                for key in [2, 3, 4] { group.addTask { try await queue.row(key, by: Self.lookup, fetch: fetch.fetch)?.key } }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }
        }
        while queue.waitingCount < 3 { await Task.yield() }
        sender.cancel()
        fetch.release()
        await #expect(throws: CancellationError.self) { _ = try await sender.value }
        let rows = try await waiting.value
        #expect(Set(rows.compactMap { $0 }) == [2, 3, 4])
        #expect(queue.waitingCount == 0)
    }
}

/// Todos shown by id on the database under test (on PostgreSQL the lookups share statements): each caller gets its
/// own list's todo and never another's.
@Suite struct TodoLookupTests {
    @Test func concurrentShowsOfManyOwnersEachGetTheirOwnTodoAndNoOneElses() async throws {
        try await withTestApp { _, database in
            let repository = SQLTodoRepository(executor: database.executor)
            let owners: [TodoOwner] = [.anonymous, .account(7), .account(8)]
            var made: [(owner: TodoOwner, todo: Todo)] = []
            for index in 0..<30 {
                let owner = owners[index % owners.count]
                made.append((owner, try await repository.create(title: "todo \(index)", isDone: false, owner: owner, at: Date(timeIntervalSince1970: 1_700_000_000))))
            }
            let asked = made.flatMap { entry in owners.map { (asker: $0, entry: entry) } } + [(asker: .anonymous, entry: (owner: .anonymous, todo: Todo(id: 999_999, title: "", isDone: false, createdAt: .distantPast, updatedAt: .distantPast)))]
            let wrong = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<3 {
                    for (asker, entry) in asked {
                        group.addTask {
                            let found = try await repository.find(id: entry.todo.id, owner: asker)
                            let expected = asker == entry.owner && entry.todo.id != 999_999 ? entry.todo : nil
                            return found == expected ? nil : "\(asker) asked for \(entry.todo.id): \(String(describing: found))"
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { wrong, answer in if let answer { wrong.append(answer) } }
            }
            #expect(wrong == [])
        }
    }
}

/// On PostgreSQL the executor gathers lookups (`PostgresExecutor.readKeyed`); SQLite reads each alone.
@Suite(.enabled(if: TestDatabasePlace.postgresURL != nil, "needs SPROUT_TEST_DATABASE_URL"))
struct PostgresKeyedLookupTests {
    struct Answer: SQLRowDecodable {
        let key: Int
        let shared: Bool
        init(row: some SQLRow) throws {
            key = try row.int("key")
            shared = try row.bool("shared")
        }
    }

    /// `one` and `many` say which of them answered.
    static let lookup = KeyedLookup<Answer>(
        name: "test.answers",
        one: { key in "SELECT key, false AS shared FROM lookup_probe WHERE key = \(bind: key)" },
        many: { keys in "SELECT key, true AS shared FROM lookup_probe WHERE key = \(keys)" },
        key: \.key
    )

    @Test func concurrentLookupsShareStatementsAndEachGetsItsOwnRow() async throws {
        try await withTestApp { _, database in
            let executor = database.executor
            try await executor.writeAll([
                SQLStatement("CREATE TABLE lookup_probe (key BIGINT PRIMARY KEY)"),
                SQLStatement("INSERT INTO lookup_probe SELECT generate_series(1, 200)"),
            ])
            let answers = try await withThrowingTaskGroup(of: (Int, Answer?).self) { group in
                for key in 1...300 { group.addTask { (key, try await executor.readKeyed(key, by: Self.lookup)) } }
                return try await group.reduce(into: [(Int, Answer?)]()) { $0.append($1) }
            }
            #expect(answers.count == 300)
            #expect(answers.allSatisfy { asked, answer in answer?.key == (asked <= 200 ? asked : nil) })
            #expect(answers.contains { $0.1?.shared == true }, "300 lookups at once shared at least one statement")
        }
    }
}
