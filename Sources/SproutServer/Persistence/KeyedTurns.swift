/// At most `perKey` callers of one key at once within this process; the others wait, first come first served.
///
/// - One turn per row (security review, point 16): the read-merge-write updates (a Market PATCH, a Diary PUT)
///   write only over what they read and read again when another write landed in between; run through this, two
///   requests of this process never overtake each other, so only a writer in another process can make one read
///   again (`OvertakenWrite`), and a request never fails because another landed.
/// - A few turns per client address for product uploads: each upload in progress holds a picture part in memory,
///   so one client's many connections wait here (their bodies stay in the kernel's socket buffers) instead of
///   holding one part each.
actor KeyedTurns {
    let perKey: Int
    /// Per key, how many callers hold a turn and who waits; a key is present while someone holds one.
    private var turns: [String: Turns] = [:]

    private struct Turns {
        var running = 1
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    init(perKey: Int) {
        precondition(perKey > 0)
        self.perKey = perKey
    }

    func run<Value: Sendable>(_ key: String, _ body: @Sendable () async throws -> Value) async throws -> Value {
        if let held = turns[key] {
            if held.running < perKey {
                turns[key]?.running += 1
            } else {
                await withCheckedContinuation { turns[key]?.waiting.append($0) }
            }
        } else {
            turns[key] = Turns()
        }
        defer { release(key) }
        return try await body()
    }

    /// Callers of `key` holding a turn now, and waiting for one (for tests).
    func running(_ key: String) -> Int { turns[key]?.running ?? 0 }
    func waiting(_ key: String) -> Int { turns[key]?.waiting.count ?? 0 }

    private func release(_ key: String) {
        guard var held = turns[key] else { return }
        if held.waiting.isEmpty {
            held.running -= 1
            turns[key] = held.running == 0 ? nil : held
        } else {
            let next = held.waiting.removeFirst()  // the turn passes straight to the next caller
            turns[key] = held
            next.resume()
        }
    }
}
