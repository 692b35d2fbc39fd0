import Logging
import PostgresNIO

/// How the hub hears of new events on PostgreSQL: every node's triggers `NOTIFY sprout_events, '<topic> <seq>'`
/// at commit, and each node `LISTEN`s on one connection of its own (`SproutDatabase`'s `listening` client).
///
/// The notification is only a wake-up: the hub reads the events from the log after its cursor. So a connection
/// lost is no loss: once it is back (after a backoff), the hub catches up every topic it follows from the log.
/// The listening connection must be a session of its own: through a transaction-mode pooler (PgBouncer's
/// `pool_mode = transaction`) `LISTEN` would register on whichever server connection ran it and hear nothing.
enum PostgresEventListener {
    static let channel = "sprout_events"

    static func start(client: PostgresClient, hub: EventHub, logger: Logger) -> Task<Void, Never> {
        Task { [weak hub] in
            var backoff: Duration = .milliseconds(250)
            while !Task.isCancelled, let wakeups = hub?.wakeups {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: channel) { notifications in
                            backoff = .milliseconds(250)
                            await hub?.catchUp()
                            for try await notification in notifications {
                                if let topic = notification.payload.split(separator: " ", maxSplits: 1).first {
                                    wakeups.wake([String(topic)])
                                }
                            }
                        }
                    }
                } catch {
                    guard !Task.isCancelled else { return }
                    logger.warning("the event listener lost its connection; reconnecting", metadata: ["error": "\(String(reflecting: error).prefix(300))"])
                }
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(10))
            }
        }
    }
}
