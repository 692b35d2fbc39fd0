import Foundation
import Observation

/// The REST_TODO app's list screen without its UI: newest first, ten at a time, search, "hide completed",
/// and edits that change the loaded list in place — the scroll position and the pages already loaded survive
/// every change, and a change the server refuses is rolled back with an error to show.
@MainActor
@Observable
public final class TodoListStore {
    /// What the store is waiting for.
    public enum LoadState: Equatable, Sendable {
        case idle
        /// Loading page 1 (first load, refresh, a new search or filter).
        case loadingFirstPage
        /// Loading the page after the ones shown.
        case loadingNextPage
    }

    /// The todos loaded so far, in the order shown.
    public private(set) var todos: [Todo] = []
    /// What the store is loading right now.
    public private(set) var loadState: LoadState = .idle
    /// Whether the server has more todos after the loaded ones (from its `meta`).
    public private(set) var hasMore = false
    /// Whether page 1 of the current list has arrived.
    public private(set) var hasLoaded = false
    /// How many todos the current list (search and filter included) has on the server.
    public private(set) var total = 0
    /// The search in effect; empty means the plain list.
    public private(set) var query = ""
    /// Whether completed todos are hidden (`is_done=false`).
    public private(set) var hidesCompleted = false
    /// The ids of starred todos.
    public private(set) var favouriteIDs: Set<Int> = []
    /// The last failure, as a sentence to show; `dismissError()` clears it.
    public private(set) var errorMessage: String?
    /// The last failure as a value, for callers that handle kinds differently.
    public private(set) var lastError: (any Error)?

    /// Todos per page.
    public let perPage: Int
    /// The server's largest `per_page`.
    static let largestPage = 100
    /// How many pages one `loadNextPage` fetches at most while looking for todos it has not shown yet. A server
    /// whose `meta` keeps promising rows that never come must not keep the store fetching for ever.
    static let maximumFetchesPerLoad = 5
    private let client: TodosClient
    private let favourites: TodoFavourites?
    @ObservationIgnored private let loads = PageLoadCoordinator()
    /// Todos deleted here: a page that was already on its way when they were deleted must not bring them back.
    @ObservationIgnored private var deletedIDs: Set<Int> = []

    /// - Parameters:
    ///   - client: the Todos API.
    ///   - favourites: where stars are kept; nil disables them.
    ///   - perPage: page size (REST_TODO uses 10); kept within 1...100, the sizes the server serves.
    public init(client: TodosClient, favourites: TodoFavourites? = nil, perPage: Int = 10) {
        self.client = client
        self.favourites = favourites
        self.perPage = min(max(perPage, 1), Self.largestPage)
        favouriteIDs = Set((try? favourites?.all()) ?? [])
    }

    /// Whether any page is loading.
    public var isLoading: Bool { loadState != .idle }

    // MARK: Loading

    /// Loads page 1 of the current list again, replacing what is shown once it arrives.
    public func refresh() async {
        await restart(clearing: false)
    }

    /// Loads the next page, unless one is already loading or there is none.
    public func loadNextPage() async {
        if await loads.joinRunning() { return }
        guard hasLoaded, hasMore else { return }
        await startLoad(state: .loadingNextPage)
    }

    /// Loads the next page when `todo` is among the last `threshold` loaded (call it as rows appear).
    public func loadMoreIfNeeded(currentItem todo: Todo, threshold: Int = 3) async {
        guard let index = todos.firstIndex(where: { $0.id == todo.id }), index >= todos.count - threshold else { return }
        await loadNextPage()
    }

    /// Shows the todos whose title contains `text`; an empty text goes back to the plain list.
    public func search(_ text: String) async {
        query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        await restart(clearing: true)
    }

    /// Hides or shows completed todos, starting again from page 1.
    public func setHidesCompleted(_ hide: Bool) async {
        hidesCompleted = hide
        await restart(clearing: true)
    }

    private func restart(clearing: Bool) async {
        loads.restart()
        if clearing {
            todos = []
            hasLoaded = false
            hasMore = false
            total = 0
        }
        await startLoad(state: .loadingFirstPage)
    }

    private func startLoad(state: LoadState) async {
        loadState = state
        if await loads.run({ generation in await self.load(state: state, generation: generation) }) {
            loadState = .idle
        }
    }

    private func load(state: LoadState, generation: Int) async {
        // The next page is counted from what is loaded, not from a page counter, so todos added or deleted
        // here since the last load neither repeat nor go missing: repeats are dropped, and a page that brought
        // too few new todos (because the server's pages shifted) is followed by the next one.
        var page = state == .loadingFirstPage ? 1 : todos.count / perPage + 1
        var added = 0
        var addedBefore = 0
        var fetches = 0
        do {
            while true {
                let result = try await fetch(page: page)
                fetches += 1
                guard loads.isCurrent(generation), !Task.isCancelled else { return }
                let arrived = result.todos.filter { !deletedIDs.contains($0.id) }
                if state == .loadingFirstPage {
                    todos = arrived
                    added = arrived.count
                } else {
                    let known = Set(todos.map(\.id))
                    let fresh = arrived.filter { !known.contains($0.id) }
                    todos += fresh
                    added += fresh.count
                }
                // An empty page is the end, whatever `meta` says.
                hasMore = result.hasMore && !result.todos.isEmpty
                total = result.total
                hasLoaded = true
                guard state == .loadingNextPage, added < perPage, hasMore, fetches < Self.maximumFetchesPerLoad else { return }
                // Count again from what is loaded now (deletions may have shifted the server's pages), and move
                // on when a page brought nothing new, so the loop always ends.
                let recounted = todos.count / perPage + 1
                page = recounted > page ? recounted : page + (added == addedBefore ? 1 : 0)
                addedBefore = added
            }
        } catch .cancelled {
            return
        } catch {
            guard loads.isCurrent(generation) else { return }
            report(error)
        }
    }

    private func fetch(page: Int) async throws(APIError) -> TodoPage {
        let isDone: Bool? = hidesCompleted ? false : nil
        if query.isEmpty {
            return try await client.list(page: page, perPage: perPage, isDone: isDone)
        }
        return try await client.search(query, page: page, perPage: perPage, isDone: isDone)
    }

    // MARK: Editing

    /// Creates a todo and shows it at the top when it belongs to the current list. Returns false (with
    /// `errorMessage` set) when the title is invalid or the server refuses.
    @discardableResult
    public func create(title rawTitle: String) async -> Bool {
        guard let title = validatedTitle(rawTitle) else { return false }
        do {
            let todo = try await client.create(title: title)
            if belongsToCurrentList(todo) {
                todos.insert(todo, at: 0)
                total += 1
            }
            return true
        } catch {
            report(error)
            return false
        }
    }

    /// Renames a todo in place; rolled back if the server refuses. A todo renamed out of the current search
    /// leaves the list, as it would on a reload.
    @discardableResult
    public func rename(_ id: Int, to newTitle: String) async -> Bool {
        guard let title = validatedTitle(newTitle) else { return false }
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return false }
        let original = todos[index]
        todos[index].title = title
        do {
            let saved = try await client.update(id: id, title: title)
            if belongsToCurrentList(saved) {
                replace(saved)
            } else {
                removeFromList(id)
            }
            return true
        } catch {
            rollBack(original, at: index, after: error)
            return false
        }
    }

    /// Flips a todo's done state in place. With completed todos hidden, a todo marked done leaves the list.
    /// Rolled back if the server refuses.
    public func toggleDone(_ id: Int) async {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
        let original = todos[index]
        let isDone = !original.isDone
        if hidesCompleted && isDone {
            removeFromList(id)
        } else {
            todos[index].isDone = isDone
        }
        do {
            let saved = try await client.update(id: id, isDone: isDone)
            replace(saved)
        } catch {
            rollBack(original, at: index, after: error)
        }
    }

    /// Deletes a todo and its star; put back in its place if the server refuses.
    public func delete(_ id: Int) async {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
        let original = todos[index]
        removeFromList(id)
        deletedIDs.insert(id)
        do {
            try await client.delete(id: id)
            forgetFavourite(id)
        } catch .status(code: 404, _, _, _) {
            // Already gone on the server: the deletion the person wanted has happened.
            forgetFavourite(id)
        } catch {
            deletedIDs.remove(id)
            rollBack(original, at: index, after: error)
        }
    }

    // MARK: Favourites

    /// Whether the todo is starred.
    public func isFavourite(_ id: Int) -> Bool { favouriteIDs.contains(id) }

    /// Stars or unstars a todo (kept on the device).
    public func toggleFavourite(_ id: Int) {
        guard let favourites else { return }
        do {
            if try favourites.toggle(id) { favouriteIDs.insert(id) } else { favouriteIDs.remove(id) }
        } catch {
            report(error, message: "즐겨찾기를 저장하지 못했습니다.")
        }
    }

    /// Clears the error once it has been shown.
    public func dismissError() {
        errorMessage = nil
        lastError = nil
    }

    // MARK: Helpers

    /// The trimmed title, or nil with the rule's message reported.
    private func validatedTitle(_ raw: String) -> String? {
        switch TodoValidation.validTitle(raw) {
        case .success(let title):
            return title
        case .failure(let failure):
            report(failure, message: failure.message)
            return nil
        }
    }

    private func forgetFavourite(_ id: Int) {
        guard favouriteIDs.contains(id) else { return }
        _ = try? favourites?.unmark(id)
        favouriteIDs.remove(id)
    }

    private func belongsToCurrentList(_ todo: Todo) -> Bool {
        if hidesCompleted && todo.isDone { return false }
        if !query.isEmpty && !todo.title.lowercased().contains(query.lowercased()) { return false }
        return true
    }

    /// Puts the server's version of a todo where the todo is now shown (if it still is).
    private func replace(_ todo: Todo) {
        guard let index = todos.firstIndex(where: { $0.id == todo.id }) else { return }
        todos[index] = todo
    }

    /// Takes a todo out of the list and the count.
    private func removeFromList(_ id: Int) {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
        todos.remove(at: index)
        total -= 1
    }

    /// Undoes an optimistic change the server refused: `original` goes back where it was. When the server says
    /// the todo no longer exists (someone deleted it), it leaves the list instead of coming back as a ghost.
    private func rollBack(_ original: Todo, at index: Int, after error: APIError) {
        report(error)
        if error.statusCode == 404 || deletedIDs.contains(original.id) {
            removeFromList(original.id)
            forgetFavourite(original.id)
            return
        }
        if let current = todos.firstIndex(where: { $0.id == original.id }) {
            todos[current] = original
        } else {
            todos.insert(original, at: min(index, todos.count))
            total += 1
        }
    }

    private func report(_ error: any Error, message: String? = nil) {
        lastError = error
        errorMessage = message ?? (error as? APIError)?.message ?? String(describing: error)
    }
}
