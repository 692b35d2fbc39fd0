import Foundation

/// What `sprout board …` shows of a board.
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

    public var description: String {
        switch self {
        case .notFound(let id): "No board has the id \(id) (`sprout board list` shows them)."
        case .invalid(let reason): reason
        }
    }
}

/// The administrator's commands on boards (`sprout board create|list|rename|archive`).
public struct BoardAdministration: Sendable {
    let repository: SQLBoardRepository

    public static let boardTypes = BoardType.allCases.map(\.rawValue)

    public init(database: SproutDatabase) {
        repository = SQLBoardRepository(executor: database.executor)
    }

    /// Every board in display order, archived ones included.
    public func list() async throws -> [BoardSummary] {
        try await repository.boards(includingArchived: true, now: Date()).map(BoardSummary.init)
    }

    /// A new board at the end of the menu. `type` is `normal`, `notice` (posts show the notice badge) or
    /// `anonymous` (writers show as 익명).
    public func create(name: String, type: String = "normal", writable: Bool = true) async throws -> BoardSummary {
        guard let boardType = BoardType(rawValue: type) else {
            throw BoardAdministrationError.invalid("The type must be one of \(Self.boardTypes.joined(separator: ", ")).")
        }
        return BoardSummary(try await repository.createBoard(displayName: try Self.checkedName(name), type: boardType, writable: writable))
    }

    public func rename(id: Int, to name: String) async throws -> BoardSummary {
        guard let board = try await repository.changeBoard(id: id, displayName: try Self.checkedName(name), archived: nil) else {
            throw BoardAdministrationError.notFound(id)
        }
        return BoardSummary(board)
    }

    /// Hides a board from the menu; its posts stay in the database but are no longer served.
    public func archive(id: Int) async throws -> BoardSummary {
        guard let board = try await repository.changeBoard(id: id, displayName: nil, archived: true) else {
            throw BoardAdministrationError.notFound(id)
        }
        return BoardSummary(board)
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
