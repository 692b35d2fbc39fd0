import Foundation
import Observation
import SproutWire

/// The board search screen without its UI (§B.6 of the contract): scoped to one board, placeholder
/// `{board name}에서 검색`. With no text it shows the search history; with text, four rows (`전체 : text`,
/// `제목 : text`, `내용 : text`, `작성자 : text`); choosing a row (or a history entry, which restores its text and
/// target) runs the search, remembers it in the history, and shows the `results`, 30 at a time. Changing the text
/// afterwards goes back to the rows.
///
/// The rows follow the text as it is typed, with no request, so the screen needs no debounce.
@MainActor
@Observable
public final class BoardSearchStore {
    /// What the screen shows under the field.
    public enum Content: Equatable, Sendable {
        /// No text: the history (or the hint when it is empty).
        case history
        /// Text typed, no search run for it: the four target rows.
        case targets
        /// The results of `query`.
        case results
    }

    /// One of the rows offered for typed text.
    public struct TargetRow: Sendable, Hashable, Identifiable {
        /// Where the row searches.
        public var target: BoardSearchTarget
        /// The text, trimmed.
        public var text: String
        /// What the row says: `제목 : text`.
        public var title: String { BoardText.targetRow(target, text: text) }
        /// The target identifies the row.
        public var id: BoardSearchTarget { target }
        /// The search the row runs.
        public var query: BoardSearchQuery { BoardSearchQuery(text: text, target: target) }
    }

    /// The board searched in; nil until `setBoard(_:)`.
    public private(set) var board: Board?
    /// The text in the field, as typed.
    public private(set) var text = ""
    /// The search whose results are shown; nil while typing.
    public private(set) var query: BoardSearchQuery?
    /// The remembered searches, most recent first (empty without a history store).
    public private(set) var history: [BoardSearchEntry] = []
    /// Why the history could not be read or written, as a sentence; `dismissError()` clears it.
    public private(set) var historyErrorMessage: String?

    /// The results of `query`, paged: `results.posts`, `results.loadMore()`, …
    public let results: BoardPostList
    private let client: BoardClient
    private let historyStore: BoardSearchHistory?

    /// - Parameters:
    ///   - client: the board API.
    ///   - history: where searches are remembered; nil remembers none.
    ///   - pageSize: results per page, kept within 1…100; 30 as in the app.
    public init(client: BoardClient, history: BoardSearchHistory?, pageSize: Int = BoardClient.pageSize) {
        self.client = client
        historyStore = history
        results = BoardPostList(pageSize: pageSize, operation: .search)
        reloadHistory()
    }

    // MARK: What the screen shows

    /// The field's placeholder, `{board name}에서 검색`; empty before a board is set.
    public var placeholder: String { board.map { BoardText.searchPlaceholder(boardName: $0.name) } ?? "" }

    /// What to show under the field.
    public var content: Content {
        if query != nil { return .results }
        return trimmedText.isEmpty ? .history : .targets
    }

    /// The four rows for the typed text, in the app's order; empty when there is no text or results are shown.
    public var targetRows: [TargetRow] {
        guard content == .targets else { return [] }
        return BoardSearchTarget.allCases.map { TargetRow(target: $0, text: trimmedText) }
    }

    /// The hint with no text and no history, `검색 결과가 없습니다.…` for a search that found nothing; else nil.
    public var emptyText: String? {
        switch content {
        case .history: history.isEmpty ? BoardText.searchHint : nil
        case .targets: nil
        case .results: results.hasLoaded && results.posts.isEmpty && results.lastError == nil ? BoardText.noResults : nil
        }
    }

    /// The last failure as a sentence to show: the search's, else the history's.
    public var errorMessage: String? { results.errorMessage ?? historyErrorMessage }

    // MARK: Typing and searching

    /// Searches in `board` from now on; results of another board are dropped and the screen goes back to typing.
    public func setBoard(_ board: Board) {
        guard board.id != self.board?.id else {
            self.board = board
            return
        }
        self.board = board
        endResults()
    }

    /// The field's text changed: results for another text give way to the rows (or the history).
    public func setText(_ text: String) {
        self.text = text
        if let query, query.text != trimmedText { endResults() }
    }

    /// Runs the typed text in `target` (a tapped row).
    public func search(in target: BoardSearchTarget) async {
        await run(BoardSearchQuery(text: text, target: target))
    }

    /// Runs a history entry again: its text and target come back into the field.
    public func select(_ entry: BoardSearchEntry) async {
        await run(entry.query)
    }

    /// Runs `query`: the text goes into the field, the search is remembered, and its first page loads. An empty
    /// text, or no board, does nothing.
    public func run(_ query: BoardSearchQuery) async {
        let trimmed = BoardSearchQuery(text: query.text.trimmingCharacters(in: .whitespacesAndNewlines), target: query.target)
        guard let board, !trimmed.text.isEmpty else { return }
        text = trimmed.text
        self.query = trimmed
        remember(trimmed)
        let client = client
        await results.start({ (offset, limit) throws(APIError) in
            try await client.posts(boardID: board.id, offset: offset, limit: limit, search: trimmed)
        }, clearing: true)
    }

    // MARK: History

    /// Forgets one history entry (the cell's × button).
    public func deleteHistory(_ entry: BoardSearchEntry) {
        guard let historyStore else { return }
        updateHistory { try historyStore.delete(entry.query) }
    }

    /// Forgets every history entry.
    public func clearHistory() {
        guard let historyStore else { return }
        updateHistory { try historyStore.removeAll() }
    }

    /// Reads the history again from its store.
    public func reloadHistory() {
        updateHistory {}
    }

    /// Clears the errors once they have been shown.
    public func dismissError() {
        results.dismissError()
        historyErrorMessage = nil
    }

    /// What the history says when its database fails.
    public static let historyFailureMessage = "검색 기록을 저장하지 못했습니다."

    // MARK: Helpers

    private var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    private func endResults() {
        query = nil
        results.clear()
    }

    private func remember(_ query: BoardSearchQuery) {
        guard let historyStore else { return }
        updateHistory { try historyStore.save(query) }
    }

    private func updateHistory(_ change: () throws -> Void) {
        guard let historyStore else { return }
        do {
            try change()
            history = try historyStore.entries()
        } catch {
            historyErrorMessage = Self.historyFailureMessage
        }
    }
}
