/// One list load at a time, for `PagedList`: a "load more" while a load runs waits for it instead of
/// sending a second request, and a restart (refresh, a new search, order or filter) cancels the running load and
/// makes its answer stale, so an answer to an older request never lands on the newer list.
@MainActor
final class PageLoadCoordinator {
    private var running: Task<Void, Never>?
    private var generation = 0

    /// Waits for the load that is running; false when none is.
    func joinRunning() async -> Bool {
        guard let running else { return false }
        await running.value
        return true
    }

    /// Cancels the running load; its answer is stale from now on.
    func restart() {
        running?.cancel()
        running = nil
        generation += 1
    }

    /// Whether the answer of the load that `run` started as `generation` may still be shown.
    func isCurrent(_ generation: Int) -> Bool {
        generation == self.generation
    }

    /// Runs `load` (told its generation) as the current load and waits for it. Returns true when it is still the
    /// current load when it ends — no restart came meanwhile — so the caller may mark the list idle.
    func run(_ load: @escaping @MainActor (_ generation: Int) async -> Void) async -> Bool {
        let generation = self.generation
        let task = Task { await load(generation) }
        running = task
        await task.value
        guard self.generation == generation else { return false }
        running = nil
        return true
    }
}
