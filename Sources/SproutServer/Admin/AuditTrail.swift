import Foundation

/// Who did something the audit log records: an account in the console, or a person at the command line.
public struct AuditActor: Sendable, Equatable {
    /// What the log shows: the account's username, or `cli:<user>`.
    public let name: String
    /// The account behind a console action; nil for the command line.
    public let accountID: Int?
    public let client: String?
    public let userAgent: String?
    public let requestID: String?

    public init(name: String, accountID: Int?, client: String? = nil, userAgent: String? = nil, requestID: String? = nil) {
        self.name = name
        self.accountID = accountID
        self.client = client
        self.userAgent = userAgent
        self.requestID = requestID
    }

    /// The person running `sprout` here: `cli:` and their login name.
    public static func commandLine(environment: [String: String] = ProcessInfo.processInfo.environment) -> AuditActor {
        let user = environment["SUDO_USER"] ?? environment["USER"] ?? environment["LOGNAME"] ?? loginName() ?? "uid\(getuid())"
        return AuditActor(name: "cli:" + user, accountID: nil, client: "local", userAgent: "sprout")
    }
}

/// The name of the user this process runs as, from the password database (a shell without `USER`).
private func loginName() -> String? {
    guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return nil }
    return String(cString: name)
}

/// One change the log records: an action on a target with the fields it changed, before and after.
public struct AuditEntry: Sendable, Equatable {
    /// `account.block`, `content.hide`, `board.rename`…
    public let action: String
    /// `account:3`, `post:12`, `board:2`, `backup:sprout-….tar`.
    public let target: String
    /// Field → (before, after); nil is "none" (a created row has no before, a deleted one no after).
    public let changes: [String: Change]

    public struct Change: Sendable, Equatable, Codable {
        public let before: String?
        public let after: String?
        public init(before: String?, after: String?) {
            self.before = before
            self.after = after
        }
    }

    public init(action: String, target: String, changes: [String: Change] = [:]) {
        self.action = action
        self.target = target
        self.changes = changes
    }

    /// The changes as stored: a JSON object with keys in order.
    var changesJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(changes), as: UTF8.self)) ?? "{}"
    }
}

/// A recorded entry, as the console and `sprout audit list` show it.
public struct AuditRecord: Sendable, Equatable {
    public let id: Int
    public let at: Date
    public let actor: String
    public let actorAccountID: Int?
    public let action: String
    public let target: String
    public let changes: [String: AuditEntry.Change]
    public let client: String?
    public let userAgent: String?
    public let requestID: String?
}

/// What to list of the log: everything, or what one actor did, one action, one target.
public struct AuditFilter: Sendable, Equatable {
    public var actor: String?
    public var action: String?
    public var target: String?
    /// Entries older than this id (the next page).
    public var beforeID: Int?
    public var limit: Int

    public init(actor: String? = nil, action: String? = nil, target: String? = nil, beforeID: Int? = nil, limit: Int = 50) {
        self.actor = actor
        self.action = action
        self.target = target
        self.beforeID = beforeID
        self.limit = limit
    }
}

/// The audit log: append-only (a trigger refuses UPDATE; nothing deletes but retention). Entries are written as
/// statements in the same transaction as the change they describe, so there is no change without its entry and
/// no entry for a change that did not happen.
public struct AuditTrail: Sendable {
    let executor: any SQLExecutor
    let retentionDays: Int?

    init(executor: any SQLExecutor, retentionDays: Int?) {
        self.executor = executor
        self.retentionDays = retentionDays
    }

    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        self.init(executor: database.executor, retentionDays: configuration.admin.auditRetentionDays)
    }

    /// The INSERT of `entry`, written only when `condition` holds at that point of the transaction (the row it
    /// describes is still as the change expects), answering the new entry's id. `target`: SQL naming the target
    /// instead of `entry.target`, for a row whose id the same transaction made.
    func record(_ entry: AuditEntry, by actor: AuditActor, at now: Date, when condition: SQLStatement = "1 = 1", target: SQLStatement? = nil) -> SQLStatement {
        """
        INSERT INTO audit_log (at, actor, actor_account_id, action, target, changes, client, user_agent, request_id)
        SELECT \(bind: now), \(bind: actor.name), \(bind: actor.accountID), \(bind: entry.action), \(target ?? "\(bind: entry.target)"),
          \(bind: entry.changesJSON), \(bind: actor.client), \(bind: actor.userAgent.map { String($0.prefix(512)) }), \(bind: actor.requestID)
        WHERE \(condition) RETURNING id
        """
    }

    /// Writes `entry` on its own, for a change that is no database row (`sprout backup`'s archive on disk): once
    /// the change is done, so the log never names an archive that was not written.
    public func recordDone(_ entry: AuditEntry, by actor: AuditActor) async throws {
        let now = Date().truncatedToMilliseconds
        _ = try await executor.writeSequence(prune(at: now) + [record(entry, by: actor, at: now)], as: SQLInt.self)
    }

    /// Entries for many targets of one action, one per row of `rows` (a SELECT giving `target` and `changes`
    /// columns), for bulk actions.
    func record(action: String, rows: SQLStatement, by actor: AuditActor, at now: Date) -> SQLStatement {
        """
        INSERT INTO audit_log (at, actor, actor_account_id, action, target, changes, client, user_agent, request_id)
        SELECT \(bind: now), \(bind: actor.name), \(bind: actor.accountID), \(bind: action), r.target, r.changes,
          \(bind: actor.client), \(bind: actor.userAgent.map { String($0.prefix(512)) }), \(bind: actor.requestID)
        FROM (\(rows)) r
        """
    }

    /// Removes entries past the retention (`AUDIT_RETENTION_DAYS`); written beside every new entry, so the log
    /// needs no job of its own. Nothing when entries are kept for ever.
    func prune(at now: Date) -> [SQLStatement] {
        guard let retentionDays else { return [] }
        let cutoff = now.addingTimeInterval(-Double(retentionDays) * 86_400)
        return ["DELETE FROM audit_log WHERE at < \(bind: cutoff)"]
    }

    /// Newest first.
    public func list(_ filter: AuditFilter) async throws -> [AuditRecord] {
        var conditions: [SQLStatement] = []
        if let actor = filter.actor { conditions.append("actor = \(bind: actor)") }
        if let action = filter.action { conditions.append("action = \(bind: action)") }
        if let target = filter.target { conditions.append("target = \(bind: target)") }
        if let before = filter.beforeID { conditions.append("id < \(bind: before)") }
        let whereClause = conditions.isEmpty ? SQLStatement("1 = 1") : SQLStatement.joined(conditions, separator: " AND ")
        return try await executor.read(
            """
            SELECT id, at, actor, actor_account_id, action, target, changes, client, user_agent, request_id FROM audit_log
            WHERE \(whereClause) ORDER BY id DESC LIMIT \(bind: min(max(filter.limit, 1), 1000))
            """,
            as: AuditRecord.self
        )
    }
}

extension AuditRecord: SQLRowDecodable {
    public init(row: some SQLRow) throws {
        let changes = try row.string("changes")
        self.init(
            id: try row.int("id"), at: try row.date("at"), actor: try row.string("actor"),
            actorAccountID: try row.optionalInt("actor_account_id"), action: try row.string("action"),
            target: try row.string("target"),
            changes: (try? JSONDecoder().decode([String: AuditEntry.Change].self, from: Data(changes.utf8))) ?? [:],
            client: try row.optionalString("client"), userAgent: try row.optionalString("user_agent"),
            requestID: try row.optionalString("request_id")
        )
    }
}
