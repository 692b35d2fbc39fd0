import NIOCore
import Synchronization

/// A read of one row by its integer key that concurrent callers may share: on PostgreSQL, lookups asked while another
/// of the same kind is on its way on the same event loop wait for it and then go together, as one statement for all
/// their keys (`many`); alone, a lookup is `one`, as a plain read would be. On SQLite every lookup is `one`.
///
/// Why: on PostgreSQL a single-row read costs far more in its round trip than in the row (postgres-nio's write, the
/// server's wake-up, the answer's read and the task's resumption), and 64 connections asking for todos by id made as
/// many round trips. Nothing waits on a timer: the first lookup goes at once, the next ones gather while it is out,
/// so a quiet server answers as before and a busy one makes fewer, larger statements. Each lookup still sees every
/// write committed before it was asked: the statement that answers it is sent after it arrived.
public struct KeyedLookup<Row: SQLRowDecodable & Sendable>: Sendable {
    /// Names the kind of lookup: the lookups that may share a statement (one per query shape).
    let name: String
    /// The row with this key, if any, as a prepared statement.
    let one: @Sendable (Int) -> SQLStatement
    /// The rows with these keys (any order, each at most once): the caller writes `keys` where a list goes,
    /// `WHERE id = \(keys)`; on PostgreSQL it is `ANY(CAST($n AS bigint[]))`, one prepared statement for any count.
    let many: @Sendable (_ keys: SQLStatement) -> SQLStatement
    /// A row's key, to hand each lookup its own row.
    let key: @Sendable (Row) -> Int

    init(name: String, one: @escaping @Sendable (Int) -> SQLStatement, many: @escaping @Sendable (_ keys: SQLStatement) -> SQLStatement,
         key: @escaping @Sendable (Row) -> Int) {
        self.name = name
        self.one = one
        self.many = many
        self.key = key
    }
}

extension SQLStatement {
    /// `ANY(CAST($n AS bigint[]))` over `keys`, bound as one text value (`{1,2,3}`): the statement's text is the same
    /// for any number of keys, so it stays prepared. PostgreSQL only.
    static func anyOf(_ keys: [Int]) -> SQLStatement {
        let list = "{" + keys.map(String.init).joined(separator: ",") + "}"
        return "ANY(CAST(\(bind: list) AS bigint[]))"
    }
}

/// The lookups of one kind that gather on one event loop: at most `maximumOut` statements of theirs are on their way
/// at a time. Whoever finds fewer out sends one; lookups that come while they are all out wait, and when one is
/// answered the first of them is woken to send the next statement for all of them. So no task is made and no
/// lookup waits for a statement sent after its own.
final class KeyedLookupQueue<Row: SQLRowDecodable & Sendable>: Sendable {
    private enum Turn: Sendable {
        case answered(Row?)
        case failed(any Error)
        /// Send the next statement, for these waiting lookups and your own.
        case lead([Waiting])
    }

    private struct Waiting: Sendable {
        let key: Int
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State: Sendable {
        /// Statements on their way.
        var out = 0
        var waiting: [Waiting] = []
    }

    private let state = Mutex(State())
    /// How many statements may be on their way at once; a lookup that finds fewer out sends its own. One: by hand
    /// (todo show by random id on PostgreSQL, wrk -c16 / -c64), one out made 14,079 / 22,125 req/s, two 13,018 /
    /// 19,445, four 9,654 / 17,767, none shared 9,554 / 12,083; at -c4 one made 6,277 against 6,893 (p99 1.1 ms
    /// either way): two lookups of a loop then wait for each other's round trip.
    let maximumOut: Int

    init(maximumOut: Int = 1) {
        self.maximumOut = max(1, maximumOut)
    }

    /// At most this many lookups share a statement (its key list stays a few kilobytes); the rest wait for the next.
    static var maximumKeys: Int { 500 }

    /// Lookups waiting for the next statement (for tests).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// The row with `key`, read by `fetch` (`one` of a single key, `many` of several), shared with the lookups
    /// waiting beside it.
    func row(_ key: Int, by lookup: KeyedLookup<Row>, fetch: @Sendable (SQLStatement) async throws -> [Row]) async throws -> Row? {
        let maximumOut = maximumOut
        let sendsNow = state.withLock { state in
            guard state.out < maximumOut else { return false }
            state.out += 1
            return true
        }
        var others: [Waiting] = []
        if !sendsNow {
            let turn = await withCheckedContinuation { continuation in
                let sendsAfterAll = state.withLock { state in
                    guard state.out >= maximumOut else {
                        state.out += 1
                        return true
                    }
                    state.waiting.append(Waiting(key: key, continuation: continuation))
                    return false
                }
                if sendsAfterAll { continuation.resume(returning: .lead([])) }
            }
            switch turn {
            case .answered(let row): return row
            case .failed(let error): throw error
            case .lead(let waiting): others = waiting
            }
        }
        return try await send(key, with: others, by: lookup, fetch: fetch)
    }

    private func send(_ key: Int, with others: [Waiting], by lookup: KeyedLookup<Row>, fetch: @Sendable (SQLStatement) async throws -> [Row]) async throws -> Row? {
        let outcome: Result<[Int: Row], any Error>
        do {
            let statement: SQLStatement
            if others.isEmpty {
                statement = lookup.one(key)
            } else {
                var keys = Set(others.map(\.key))
                keys.insert(key)
                statement = lookup.many(.anyOf(keys.sorted()))
            }
            var rows: [Int: Row] = [:]
            for row in try await fetch(statement.prepared()) { rows[lookup.key(row)] = row }
            outcome = .success(rows)
        } catch {
            outcome = .failure(error)
        }
        if case .failure = outcome, Task.isCancelled {
            // The sender's request was cancelled, not the others': they go in the next statement instead.
            state.withLock { $0.waiting.insert(contentsOf: others, at: 0) }
        } else {
            for waiting in others {
                switch outcome {
                case .success(let rows): waiting.continuation.resume(returning: .answered(rows[waiting.key]))
                case .failure(let error): waiting.continuation.resume(returning: .failed(error))
                }
            }
        }
        handOver()
        return try outcome.get()[key]
    }

    /// The next statement goes to the first waiting lookup, for the others waiting then (up to `maximumKeys` in all);
    /// with none waiting, one statement fewer is out.
    private func handOver() {
        let next = state.withLock { state -> (Waiting, [Waiting])? in
            guard let first = state.waiting.first else {
                state.out -= 1
                return nil
            }
            let taken = min(state.waiting.count, Self.maximumKeys)
            defer { state.waiting.removeFirst(taken) }
            return (first, Array(state.waiting[1..<taken]))
        }
        if let (leader, rest) = next { leader.continuation.resume(returning: .lead(rest)) }
    }
}

/// An executor's lookup queues: one per kind of lookup and event loop, made when first asked for.
final class KeyedLookupQueues: Sendable {
    private struct Place: Hashable {
        let name: String
        let loop: Int
    }

    /// The loops whose lookups gather apart (the prepared pools' loops); off them, everything is on the first.
    private let loops: [any EventLoop]
    private let queues = Mutex<[Place: any Sendable]>([:])

    init(loops: [any EventLoop]) {
        self.loops = loops
    }

    func queue<Row>(for lookup: KeyedLookup<Row>) -> KeyedLookupQueue<Row> {
        var loop = 0
        for (index, candidate) in loops.enumerated() where candidate.inEventLoop { loop = index }
        let place = Place(name: lookup.name, loop: loop)
        return queues.withLock { queues in
            if let queue = queues[place] { return queue as! KeyedLookupQueue<Row> }
            let queue = KeyedLookupQueue<Row>()
            queues[place] = queue
            return queue
        }
    }
}
