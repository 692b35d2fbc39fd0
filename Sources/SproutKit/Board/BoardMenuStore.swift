import Foundation
import Observation

/// The board menu without its UI: the boards the server lists, and the selected one, remembered across launches.
///
/// The selection is kept in a `SettingsStore` (id and name, as the app kept `boardID` and `boardDisplayName`)
/// and restored by `load()` when the board still exists, else the first board is selected — the original app
/// always selected the first one at launch.
@MainActor
@Observable
public final class BoardMenuStore {
    /// The boards, in the server's order.
    public private(set) var boards: [Board] = []
    /// The board shown; nil until the boards have loaded (or when there are none).
    public private(set) var selectedBoard: Board?
    /// Whether the boards are loading.
    public private(set) var isLoading = false
    /// Whether the boards have arrived once.
    public private(set) var hasLoaded = false
    /// The last failure, sorted; `dismissError()` clears it.
    public private(set) var lastError: SproutError?

    private let client: BoardClient
    private let settings: any SettingsStore

    /// The settings key of the selected board's id.
    public static let selectedIDKey = "board.selectedBoardID"
    /// The settings key of the selected board's name.
    public static let selectedNameKey = "board.selectedBoardName"

    /// - Parameters:
    ///   - client: the board API.
    ///   - settings: where the selected board is kept between launches.
    public init(client: BoardClient, settings: any SettingsStore) {
        self.client = client
        self.settings = settings
    }

    /// The last failure as a sentence to show.
    public var errorMessage: String? { lastError?.message }

    /// The board remembered from an earlier launch (id and name), before the boards have loaded: the screen can
    /// show its name at once.
    public var rememberedBoard: (id: Int, name: String)? {
        guard let id = settings.string(forKey: Self.selectedIDKey).flatMap(Int.init) else { return nil }
        return (id, settings.string(forKey: Self.selectedNameKey) ?? "")
    }

    /// Loads the boards and selects the remembered one when it is still there (with its current name), else the
    /// first; returns the selected board. A failure keeps what was shown.
    @discardableResult
    public func load() async -> Board? {
        isLoading = true
        defer { isLoading = false }
        do {
            let boards = try await client.boards()
            self.boards = boards
            hasLoaded = true
            lastError = nil
            let wanted = selectedBoard?.id ?? rememberedBoard?.id
            let board = boards.first { $0.id == wanted } ?? boards.first
            if let board { select(board) } else { selectedBoard = nil }
            return selectedBoard
        } catch .cancelled {
            return selectedBoard
        } catch {
            lastError = error.sorted(for: .board, during: .loadBoards)
            return selectedBoard
        }
    }

    /// Selects `board` and remembers it for the next launch.
    public func select(_ board: Board) {
        selectedBoard = board
        settings.set(String(board.id), forKey: Self.selectedIDKey)
        settings.set(board.name, forKey: Self.selectedNameKey)
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        lastError = nil
    }
}
