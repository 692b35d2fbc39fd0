import Foundation
import Logging

/// What a moderator does to content: hide (reversible: only the author still sees it, marked), restore, delete.
/// Used by `sprout moderate` and the console, on one item or up to 1,000 at once, each call one transaction:
/// the rows are locked, one audit entry per item that changes is written, the items' open reports are resolved,
/// and the change is made — all under one condition, so entries, resolutions and changes agree.
public struct Moderation: Sendable {
    public enum Action: String, Sendable, CaseIterable, Codable {
        case hide, restore, delete
    }

    /// At most this many items in one call.
    public static let maximumBatch = 1_000

    let executor: any SQLExecutor
    let audit: AuditTrail
    let images: any MarketImageStorage
    let logger: Logger

    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        executor = database.executor
        audit = AuditTrail(database: database, configuration: configuration)
        images = switch configuration.market.imageStorage {
        case .files: FileImageStorage(dataDirectory: configuration.data.directory)
        case .database: DatabaseImageStorage(executor: database.executor)
        }
        logger = makeLogger(level: configuration.server.logLevel)
    }

    /// Applies `action` to the items of `kind` with these ids; answers the ids it changed (an item already in the
    /// asked state, or gone, is left out).
    public func apply(_ action: Action, to kind: ModeratedKind, ids rawIDs: [Int], by actor: AuditActor) async throws -> [Int] {
        let ids = Array(Set(rawIDs.filter { $0 > 0 })).sorted()
        guard !ids.isEmpty else { return [] }
        guard ids.count <= Self.maximumBatch else { throw ModerationError.tooMany(ids.count) }
        let now = Date().truncatedToMilliseconds
        let table = kind.table
        let state: SQLStatement = switch action {
        case .hide: "t.hidden_at IS NULL"
        case .restore: "t.hidden_at IS NOT NULL"
        case .delete: "1 = 1"
        }
        let files = action == .delete && kind == .product ? try await MarketImageFileName.ofProducts(where: "market_products.id IN (\(list: ids))", executor: executor) : []
        let change: SQLStatement = switch action {
        case .hide:
            "UPDATE \(raw: table) AS t SET hidden_at = \(bind: now), hidden_by = \(bind: actor.name) WHERE t.id IN (\(list: ids)) AND \(state) RETURNING id"
        case .restore:
            "UPDATE \(raw: table) AS t SET hidden_at = NULL, hidden_by = NULL WHERE t.id IN (\(list: ids)) AND \(state) RETURNING id"
        case .delete:
            "DELETE FROM \(raw: table) AS t WHERE t.id IN (\(list: ids)) RETURNING id"
        }
        let changed = try await executor.writeSequence(
            [
                "UPDATE \(raw: table) SET hidden_by = hidden_by WHERE id IN (\(list: ids))",
            ] + audit.prune(at: now) + [
                audit.record(action: "content.\(action.rawValue)", rows: auditRows(action, kind, ids: ids, state: state), by: actor, at: now),
                """
                UPDATE reports SET resolved_at = \(bind: now), resolution = \(bind: action.resolution), resolved_by = \(bind: actor.name)
                WHERE kind = \(bind: kind.rawValue) AND resolved_at IS NULL
                  AND target_id IN (SELECT t.id FROM \(raw: table) t WHERE t.id IN (\(list: ids)) AND \(state))
                """,
                change,
            ],
            as: SQLInt.self
        ).map(\.value)
        if !files.isEmpty {
            do {
                try await images.delete(files)
            } catch {
                // The rows are gone; files left behind are orphans that `sprout doctor --fix` removes.
                logger.error("products deleted, but some of their image files were not", metadata: ["error": "\(error)"])
            }
        }
        return changed.sorted()
    }

    /// Closes the open reports of these items without changing the items: unfounded reports, or reports of an item
    /// its author deleted meanwhile (which no other action can reach). One `report.dismiss` entry per item that had
    /// open reports; answers those items' ids.
    public func dismissReports(of kind: ModeratedKind, ids rawIDs: [Int], by actor: AuditActor) async throws -> [Int] {
        let ids = Array(Set(rawIDs.filter { $0 > 0 })).sorted()
        guard !ids.isEmpty else { return [] }
        guard ids.count <= Self.maximumBatch else { throw ModerationError.tooMany(ids.count) }
        let now = Date().truncatedToMilliseconds
        let open: SQLStatement = "kind = \(bind: kind.rawValue) AND target_id IN (\(list: ids)) AND resolved_at IS NULL"
        let closed = try await executor.writeSequence(
            ["UPDATE reports SET reason = reason WHERE \(open)"] + audit.prune(at: now) + [
                audit.record(action: "report.dismiss", rows: """
                    SELECT '\(raw: kind.rawValue):' || target_id AS target,
                      '{"reports":{"after":"dismissed","before":"open"}}' AS changes
                    FROM reports WHERE \(open) GROUP BY target_id
                    """, by: actor, at: now),
                """
                UPDATE reports SET resolved_at = \(bind: now), resolution = 'dismissed', resolved_by = \(bind: actor.name)
                WHERE \(open) RETURNING target_id
                """,
            ],
            as: SQLInt.self
        ).map(\.value)
        return Array(Set(closed)).sorted()
    }

    /// One row per item that will change: its target name and its changes (a deletion keeps the text it removed,
    /// so the log still says what was there).
    private func auditRows(_ action: Action, _ kind: ModeratedKind, ids: [Int], state: SQLStatement) -> SQLStatement {
        let changes: String = switch (action, executor.dialect) {
        case (.hide, _): #"'{"hidden":{"after":"true","before":"false"}}'"#
        case (.restore, _): #"'{"hidden":{"after":"false","before":"true"}}'"#
        case (.delete, .sqlite): "json_object('text', json_object('before', substr(\(kind.excerptColumn), 1, 500), 'after', NULL))"
        case (.delete, .postgres): "json_build_object('text', json_build_object('before', left(\(kind.excerptColumn), 500), 'after', NULL))::text"
        }
        return """
            SELECT '\(raw: kind.rawValue):' || t.id AS target, \(raw: changes) AS changes FROM \(raw: kind.table) t
            WHERE t.id IN (\(list: ids)) AND \(state)
            """
    }
}

extension Moderation.Action {
    /// What a report of an item this action changed is resolved as.
    var resolution: String {
        switch self {
        case .hide: "hidden"
        case .restore: "restored"
        case .delete: "deleted"
        }
    }
}

public enum ModerationError: Error, CustomStringConvertible, Equatable {
    case tooMany(Int)

    public var description: String {
        switch self {
        case .tooMany(let count): "At most \(Moderation.maximumBatch) items at once (\(count) given)."
        }
    }
}
