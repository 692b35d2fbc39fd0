import Synchronization
import Testing
@testable import SproutServer

/// Callers of one key hold at most `perKey` turns at once, in the order they came; other keys do not wait.
@Suite(.timeLimit(.minutes(1))) struct KeyedTurnsTests {
    /// Counts callers inside at once and remembers the most seen.
    final class Occupancy: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1 } }
        var most: Int { counts.withLock { $0.most } }
    }

    final class Arrivals: Sendable {
        private let list = Mutex<[Int]>([])
        func append(_ n: Int) { list.withLock { $0.append(n) } }
        var all: [Int] { list.withLock { $0 } }
    }

    @Test func aKeyNeverHasMoreThanItsTurnsAtOnce() async throws {
        let turns = KeyedTurns(perKey: 3)
        let inside = Occupancy()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    try await turns.run("10.0.0.1") {
                        inside.enter()
                        try await Task.sleep(for: .milliseconds(2))
                        inside.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.most == 3)
        #expect(await turns.running("10.0.0.1") == 0)
    }

    @Test func anotherKeyDoesNotWaitBehindAFullOne() async throws {
        let turns = KeyedTurns(perKey: 1)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let holder = Task { try await turns.run("busy") { for await _ in release { break } } }
        while await turns.running("busy") == 0 { await Task.yield() }
        // Would hang here (and the time limit fail it) if keys shared their turns.
        let other = try await turns.run("quiet") { "ran" }
        #expect(other == "ran")
        releaser.yield()
        try await holder.value
        #expect(await turns.running("busy") == 0)
    }

    @Test func aFailingCallerGivesItsTurnBack() async throws {
        struct Refused: Error {}
        let turns = KeyedTurns(perKey: 1)
        await #expect(throws: Refused.self) { try await turns.run("k") { throw Refused() } }
        #expect(try await turns.run("k") { 1 } == 1)
        #expect(await turns.running("k") == 0)
    }

    @Test func waitersGetTheirTurnsInTheOrderTheyCame() async throws {
        let turns = KeyedTurns(perKey: 1)
        let order = Arrivals()
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let first = Task { try await turns.run("k") { for await _ in release { break }; order.append(0) } }
        while await turns.running("k") == 0 { await Task.yield() }
        var waiters: [Task<Void, any Error>] = []
        for n in 1...5 {
            waiters.append(Task { try await turns.run("k") { order.append(n) } })
            // Each waiter queued before the next starts: the queue's order is the order of arrival.
            while await turns.waiting("k") < n { await Task.yield() }
        }
        releaser.yield()
        try await first.value
        for waiter in waiters { try await waiter.value }
        #expect(order.all == [0, 1, 2, 3, 4, 5])
    }
}
