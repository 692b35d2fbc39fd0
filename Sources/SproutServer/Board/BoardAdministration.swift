import Foundation

/// What `sprout board …` and the console show of a board.
public struct BoardSummary: Sendable, Equatable {
    public let id: Int
    public let displayName: String
    public let type: String
    public let writable: Bool
    public let archived: Bool
    public let orderNo: Int
}

public enum BoardAdministrationError: Error, CustomStringConvertible, Equatable {
    case notFound(Int)
    case invalid(String)
    case notEmpty(Int)
    case postNotFound(Int)
    case tooManyPinned(board: Int)

    public var description: String {
        switch self {
        case .postNotFound(let id): "No board post has the id \(id)."
        case .tooManyPinned(let board):
            "Board \(board) already shows \(BoardAdministration.maximumPinnedPosts) pinned posts: unpin one first."
        case .notFound(let id): "No board has the id \(id) (`sprout board list` shows them)."
        case .invalid(let reason): reason
        case .notEmpty(let id): "Board \(id) still has posts: only an empty board can be deleted (archive it instead)."
        }
    }
}

/// The administrator's work on boards (`sprout board …` and the console): each change with its audit entry in one
/// transaction, written only when the change is made.
public struct BoardAdministration: Sendable {
    let repository: SQLBoardRepository
    let audit: AuditTrail
    var executor: any SQLExecutor { repository.executor }

    public static let boardTypes = BoardType.allCases.map(\.rawValue)

    public init(database: SproutDatabase, configuration: SproutConfiguration = SproutConfiguration()) {
        repository = SQLBoardRepository(executor: database.executor)
        audit = AuditTrail(database: database, configuration: configuration)
    }

    /// Every board in display order, archived ones included.
    public func list() async throws -> [BoardSummary] {
        try await repository.boards(includingArchived: true, now: Date()).map(BoardSummary.init)
    }

    /// A new board at the end of the menu. `type` is `normal`, `notice` (posts show the notice badge) or
    /// `anonymous` (writers show as 익명); a board that is not `writable` takes posts from moderators and admins only.
    public func create(name: String, type: String = "normal", writable: Bool = true, by actor: AuditActor) async throws -> BoardSummary {
        guard let boardType = BoardType(rawValue: type) else {
            throw BoardAdministrationError.invalid("The type must be one of \(Self.boardTypes.joined(separator: ", ")).")
        }
        let name = try Self.checkedName(name)
        let now = Date().truncatedToMilliseconds
        let entry = AuditEntry(action: "board.create", target: "board", changes: [
            "name": .init(before: nil, after: name), "type": .init(before: nil, after: type), "writable": .init(before: nil, after: String(writable)),
        ])
        let rows = try await executor.writeSequence(
            audit.prune(at: now) + [
                """
                INSERT INTO board_boards (display_name, board_type, writable, archived, order_no)
                VALUES (\(bind: name), \(bind: boardType.rawValue), \(bind: writable), FALSE, (SELECT coalesce(max(order_no), 0) + 1 FROM board_boards))
                """,
                audit.record(entry, by: actor, at: now, target: "'board:' || (SELECT max(id) FROM board_boards)"),
                "SELECT \(raw: Self.columns) FROM board_boards WHERE id = (SELECT max(id) FROM board_boards)",
            ],
            as: Board.self
        )
        guard let board = rows.first else { throw SQLRowError.missingReturnedRow }
        return BoardSummary(board)
    }

    public func rename(id: Int, to rawName: String, by actor: AuditActor) async throws -> BoardSummary {
        let name = try Self.checkedName(rawName)
        return try await change(id, by: actor) { board in
            guard board.displayName != name else { return nil }
            return (
                AuditEntry(action: "board.rename", target: "board:\(id)", changes: ["name": .init(before: board.displayName, after: name)]),
                "display_name = \(bind: board.displayName)",
                "display_name = \(bind: name)"
            )
        }
    }

    /// Archives a board (read-only: out of the menu, its posts still readable, nobody writes) or brings it back.
    public func setArchived(id: Int, _ archived: Bool, by actor: AuditActor) async throws -> BoardSummary {
        try await change(id, by: actor) { board in
            guard board.archived != archived else { return nil }
            return (
                AuditEntry(action: archived ? "board.archive" : "board.unarchive", target: "board:\(id)",
                           changes: ["archived": .init(before: String(board.archived), after: String(archived))]),
                "archived = \(bind: board.archived)",
                "archived = \(bind: archived)"
            )
        }
    }

    /// Whether accounts may write (a board that is not takes posts from moderators and admins only, like 공지사항).
    public func setWritable(id: Int, _ writable: Bool, by actor: AuditActor) async throws -> BoardSummary {
        try await change(id, by: actor) { board in
            guard board.writable != writable else { return nil }
            return (
                AuditEntry(action: "board.writable", target: "board:\(id)", changes: ["writable": .init(before: String(board.writable), after: String(writable))]),
                "writable = \(bind: board.writable)",
                "writable = \(bind: writable)"
            )
        }
    }

    /// Moves the board to `position` (1 is first) in the menu; the others keep their order.
    public func move(id: Int, to position: Int, by actor: AuditActor) async throws -> [BoardSummary] {
        for _ in 0..<3 {
            let boards = try await list()
            guard let index = boards.firstIndex(where: { $0.id == id }) else { throw BoardAdministrationError.notFound(id) }
            var order = boards.map(\.id)
            order.remove(at: index)
            order.insert(id, at: min(max(position, 1), boards.count) - 1)
            let before = boards.map(\.id)
            guard order != before || boards.enumerated().contains(where: { $0.element.orderNo != $0.offset + 1 }) else { return boards }
            let now = Date().truncatedToMilliseconds
            // The entry and the change are written only while the order is still the one read.
            let unchanged: SQLStatement = SQLStatement.joined(
                boards.map { "EXISTS (SELECT 1 FROM board_boards WHERE id = \(bind: $0.id) AND order_no = \(bind: $0.orderNo))" }, separator: " AND "
            )
            let cases = SQLStatement.joined(order.enumerated().map { "WHEN \(bind: $0.element) THEN \(bind: $0.offset + 1)" }, separator: " ")
            let entry = AuditEntry(action: "board.move", target: "board:\(id)", changes: [
                "order": .init(before: before.map(String.init).joined(separator: ","), after: order.map(String.init).joined(separator: ",")),
            ])
            let rows = try await executor.writeSequence(
                ["UPDATE board_boards SET order_no = order_no"] + audit.prune(at: now) + [
                    audit.record(entry, by: actor, at: now, when: unchanged),
                    "UPDATE board_boards SET order_no = CASE id \(cases) ELSE order_no END WHERE \(unchanged) RETURNING id",
                ],
                as: SQLInt.self
            )
            if !rows.isEmpty { return try await list() }
        }
        throw BoardAdministrationError.invalid("The boards kept changing while this was being done; try again.")
    }

    /// Deletes a board with no posts (hidden ones count: they are still there).
    public func delete(id: Int, by actor: AuditActor) async throws -> BoardSummary {
        guard let board = try await list().first(where: { $0.id == id }) else { throw BoardAdministrationError.notFound(id) }
        let now = Date().truncatedToMilliseconds
        let empty: SQLStatement = "EXISTS (SELECT 1 FROM board_boards WHERE id = \(bind: id)) AND NOT EXISTS (SELECT 1 FROM board_posts WHERE board_id = \(bind: id))"
        let entry = AuditEntry(action: "board.delete", target: "board:\(id)", changes: ["name": .init(before: board.displayName, after: nil)])
        let rows = try await executor.writeSequence(
            ["UPDATE board_boards SET order_no = order_no WHERE id = \(bind: id)"] + audit.prune(at: now) + [
                audit.record(entry, by: actor, at: now, when: empty),
                "DELETE FROM board_boards WHERE id = \(bind: id) AND NOT EXISTS (SELECT 1 FROM board_posts WHERE board_id = \(bind: id)) RETURNING id",
            ],
            as: SQLInt.self
        )
        guard !rows.isEmpty else { throw BoardAdministrationError.notEmpty(id) }
        return board
    }

    // MARK: - Audited changes

    private static let columns = "id, display_name, board_type, writable, archived, order_no, FALSE AS has_new_post"

    /// Locks the board's row, writes the entry while `expectation` (SQL over the row) holds, and sets `assignment`
    /// under the same condition. nil from `make`: nothing to change.
    private func change(
        _ id: Int, by actor: AuditActor, _ make: (Board) -> (AuditEntry, SQLStatement, SQLStatement)?
    ) async throws -> BoardSummary {
        for _ in 0..<3 {
            guard let board = try await repository.boards(includingArchived: true, now: Date()).first(where: { $0.id == id }) else {
                throw BoardAdministrationError.notFound(id)
            }
            guard let (entry, expectation, assignment) = make(board) else { return BoardSummary(board) }
            let now = Date().truncatedToMilliseconds
            let rows = try await executor.writeSequence(
                ["UPDATE board_boards SET order_no = order_no WHERE id = \(bind: id)"] + audit.prune(at: now) + [
                    audit.record(entry, by: actor, at: now, when: "EXISTS (SELECT 1 FROM board_boards WHERE id = \(bind: id) AND \(expectation))"),
                    "UPDATE board_boards SET \(assignment) WHERE id = \(bind: id) AND \(expectation) RETURNING \(raw: Self.columns)",
                ],
                as: Board.self
            )
            if let updated = rows.first { return BoardSummary(updated) }
        }
        throw BoardAdministrationError.invalid("Board \(id) kept changing while this was being done; try again.")
    }

    private static func checkedName(_ name: String) throws -> String {
        let trimmed = name.trimmingWhitespace
        guard (1...50).contains(trimmed.count) else { throw BoardAdministrationError.invalid("A board's name must be 1 to 50 characters long.") }
        return trimmed
    }
}

extension BoardSummary {
    init(_ board: Board) {
        self.init(
            id: board.id, displayName: board.displayName, type: board.boardType.rawValue, writable: board.writable,
            archived: board.archived, orderNo: board.orderNo
        )
    }
}
