import Logging
import ServiceLifecycle

/// Prunes the event log once a minute inside `sprout serve` (`EventLog.prune`), so it holds ten minutes of writes
/// beyond each topic's newest 10,000 and no more. Several processes on one database each prune: the DELETE is the
/// same, and the one that comes second finds nothing.
struct EventLogPruner: Service {
    let log: EventLog
    let logger: Logger
    var interval: Duration = .seconds(60)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                do {
                    let removed = try await log.prune()
                    if removed > 0 { logger.debug("event log pruned", metadata: ["events": "\(removed)"]) }
                } catch {
                    // The next minute tries again; the log only grows meanwhile.
                    logger.warning("could not prune the event log", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
