import GRDB
import NIOConcurrencyHelpers

/// How the hub hears of new events on SQLite: in-process, from the writer's own commits.
///
/// The writer's connection gets a TEMP trigger on `event_log` that calls a function of this process
/// (`sprout_event_written`), which notes the topic; after each commit (the WAL hook, `SQLiteCheckpointer`) the noted
/// topics wake the hub. A TEMP trigger lives on this one connection only, so other connections — a `sprout`
/// command, the `sqlite3` shell — write events without needing the function; the hub finds theirs with a
/// catch-up read every `catchUpInterval`. A savepoint rolled back leaves a topic noted for nothing: the hub then
/// reads and finds no new event, which costs one read.
enum SQLiteEventSignals {
    static let catchUpInterval: Duration = .seconds(2)

    static func start(pool: DatabasePool, checkpointer: SQLiteCheckpointer, hub: EventHub) async throws -> [Task<Void, Never>] {
        let noted = NIOLockedValueBox<Set<String>>([])
        let written = DatabaseFunction("sprout_event_written", argumentCount: 1, pure: false) { values in
            if let topic = String.fromDatabaseValue(values[0]) {
                noted.withLockedValue { _ = $0.insert(topic) }
            }
            return nil
        }
        try await pool.writeWithoutTransaction { db in
            db.add(function: written)
            try db.execute(sql: """
                CREATE TEMP TRIGGER IF NOT EXISTS sprout_event_written AFTER INSERT ON main.event_log
                BEGIN SELECT sprout_event_written(NEW.topic); END
                """)
        }
        let wakeups = hub.wakeups
        checkpointer.afterEachCommit {
            let topics = noted.withLockedValue { noted -> Set<String> in
                defer { noted.removeAll(keepingCapacity: true) }
                return noted
            }
            if !topics.isEmpty { wakeups.wake(topics) }
        }
        let catchUp = Task { [weak hub] in
            while !Task.isCancelled {
                try? await Task.sleep(for: catchUpInterval)
                await hub?.catchUp()
            }
        }
        return [catchUp]
    }
}
