import Synchronization

/// Where every `stride`-th row of a long list starts, kept in this process for one version of the list.
///
/// OFFSET walks every row it skips — on PostgreSQL 1.1–1.5 ms per 5,000 rows even as an index-only scan — so a page
/// is cut instead from the nearest mark before it: one key seek, then at most `stride - 1` skipped rows. Marks are
/// only ever used by a statement that also reads the list's version (moved by triggers in every writing
/// transaction) and answers the page only if it is still the version the marks were read at: a stale mark costs a
/// second query, never a wrong page. Each process keeps its own, so two servers on one database stay exact.
final class ListPageMarks: Sendable {
    /// The marks of one list at one version.
    struct Marks: Sendable, Equatable {
        let version: Int
        let total: Int
        /// The id of the row at position `k * stride`, for k = 0, 1, …
        let ids: [Int]
        /// The marks whose sort value is the previous mark's too: their run of equal values began more than
        /// `stride` rows before them (`ListPager` seeks into such a run by id rather than walking it).
        var inLongRuns: Set<Int> = []
    }

    /// Where a page starts: after `skip` rows from the row with id `markID` (nil when the page lies past the end).
    struct Start: Equatable {
        let markID: Int?
        let skip: Int
        /// The mark is one of `Marks.inLongRuns`.
        var inLongRun = false
    }

    let stride: Int
    /// How many lists' marks are kept at once; the least recently built go first.
    let capacity: Int
    /// A list whose marks went stale is read with OFFSET until this much time has passed since its last build, so
    /// a list under constant writes is not re-marked on every request.
    let rebuildInterval: Duration

    private struct Entry {
        var marks: Marks?
        var builtAt: ContinuousClock.Instant
    }

    private let entries = Mutex<[String: Entry]>([:])

    init(stride: Int = 100, capacity: Int = 1_024, rebuildInterval: Duration = .seconds(1)) {
        precondition(stride > 0 && capacity > 0)
        self.stride = stride
        self.capacity = capacity
        self.rebuildInterval = rebuildInterval
    }

    /// The marks kept for `list`, unless there are none or they were found stale.
    func marks(for list: String) -> Marks? {
        entries.withLock { $0[list]?.marks }
    }

    /// Forgets `list`'s marks if they are still those read at `version`.
    func discard(_ list: String, readAt version: Int) {
        entries.withLock { entries in
            if entries[list]?.marks?.version == version { entries[list]?.marks = nil }
        }
    }

    /// True when this caller should read `list`'s marks now; it then holds the build until `rebuildInterval` passes,
    /// so requests arriving at once do not all read them.
    func claimBuild(of list: String, now: ContinuousClock.Instant = .now) -> Bool {
        entries.withLock { entries in
            if let entry = entries[list], entry.marks != nil || now < entry.builtAt + rebuildInterval { return false }
            makeRoom(for: list, in: &entries)
            entries[list] = Entry(marks: nil, builtAt: now)
            return true
        }
    }

    func store(_ marks: Marks, for list: String) {
        entries.withLock { entries in
            makeRoom(for: list, in: &entries)
            entries[list] = Entry(marks: marks, builtAt: entries[list]?.builtAt ?? .now)
        }
    }

    /// Drops the least recently built list when a new one would pass `capacity`.
    private func makeRoom(for list: String, in entries: inout [String: Entry]) {
        guard entries[list] == nil, entries.count >= capacity,
              let oldest = entries.min(by: { $0.value.builtAt < $1.value.builtAt })
        else { return }
        entries.removeValue(forKey: oldest.key)
    }

    /// Where the page starting at row `offset` (0-based) begins, by these marks; nil if they cannot tell.
    func start(ofRow offset: Int, in marks: Marks) -> Start? {
        guard offset < marks.total else { return Start(markID: nil, skip: 0) }
        let index = offset / stride
        guard index < marks.ids.count else { return nil }
        let id = marks.ids[index]
        return Start(markID: id, skip: offset - index * stride, inLongRun: marks.inLongRuns.contains(id))
    }
}
