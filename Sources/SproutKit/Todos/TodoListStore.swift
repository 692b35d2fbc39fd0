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
    public var todos: [Todo] { pages.items }
    /// What the store is loading right now.
    public var loadState: LoadState {
        switch pages.loadState {
        case .idle: .idle
        case .refreshing: .loadingFirstPage
        case .loadingMore: .loadingNextPage
        }
    }
    /// Whether the server has more todos after the loaded ones (from its `meta`).
    public var hasMore: Bool { pages.pageSaidMore }
    /// Whether page 1 of the current list has arrived.
    public var hasLoaded: Bool { pages.hasLoaded }
    /// How many todos the current list (search and filter included) has on the server.
    public var total: Int { pages.total }
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
    let client: TodosClient
    private let favourites: TodoFavourites?
    /// The todos, paged by number; one `loadNextPage` fetches until a page's worth of new todos arrived.
    let pages = PagedList<Todo>()
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
        pages.fill = PagedList.Fill(minimumNewItems: self.perPage, maximumFetches: Self.maximumFetchesPerLoad)
        pages.onFailure = { [weak self] error in self?.report(error) }
    }

    /// Whether any page is loading.
    public var isLoading: Bool { pages.isLoading }

    // MARK: Loading

    /// Loads page 1 of the current list again, replacing what is shown once it arrives.
    public func refresh() async {
        await pages.start(fetchPage, clearing: false)
    }

    /// Loads the next page, unless one is already loading or there is none.
    public func loadNextPage() async {
        await pages.loadMore()
    }

    /// Loads the next page when `todo` is among the last `threshold` loaded (call it as rows appear).
    public func loadMoreIfNeeded(currentItem todo: Todo, threshold: Int = 3) async {
        await pages.loadMoreIfNeeded(currentItem: todo, threshold: threshold)
    }

    /// Shows the todos whose title contains `text`; an empty text goes back to the plain list.
    public func search(_ text: String) async {
        query = text.trimmingCharacters(in: .whitespacesAndNewlines)
        await pages.start(fetchPage, clearing: true)
    }

    /// Hides or shows completed todos, starting again from page 1.
    public func setHidesCompleted(_ hide: Bool) async {
        hidesCompleted = hide
        await pages.start(fetchPage, clearing: true)
    }

    /// Fetches a page of the current list. The next page is counted from what is loaded, not from a page
    /// counter, so todos added or deleted here since the last load neither repeat nor go missing: repeats are
    /// dropped, and a page that brought too few new todos (because the server's pages shifted) is followed by
    /// the next one (`pages.fill`).
    private var fetchPage: PagedList<Todo>.Fetch {
        { [weak self] (request) throws(APIError) in
            guard let self else { throw .cancelled }
            let number: Int
            if request.isFirst {
                number = 1
            } else if request.fetchesInLoad == 0 {
                number = request.loadedCount / perPage + 1
            } else {
                // Count again from what is loaded now (deletions may have shifted the server's pages), and move
                // on when a page brought nothing new, so the loop always ends.
                let recounted = request.loadedCount / perPage + 1
                number = recounted > request.lastPageNumber ? recounted : request.lastPageNumber + (request.addedByLastFetch == 0 ? 1 : 0)
            }
            let result = try await fetch(page: number)
            let arrived = result.todos.filter { !deletedIDs.contains($0.id) }
            // An empty page is the end, whatever `meta` says.
            return .init(items: arrived, hasMore: result.hasMore && !result.todos.isEmpty, total: result.total, number: number)
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
                pages.insert(todo, at: 0)
                pages.total += 1
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
        var renamed = original
        renamed.title = title
        pages.replace(renamed)
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
            var toggled = original
            toggled.isDone = isDone
            pages.replace(toggled)
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

    func belongsToCurrentList(_ todo: Todo) -> Bool {
        if hidesCompleted && todo.isDone { return false }
        if !query.isEmpty && !todo.title.lowercased().contains(query.lowercased()) { return false }
        return true
    }

    /// Puts the server's version of a todo where the todo is now shown (if it still is).
    private func replace(_ todo: Todo) {
        pages.replace(todo)
    }

    /// Takes a todo out of the list and the count.
    func removeFromList(_ id: Int) {
        guard pages.remove(id: id) else { return }
        pages.total -= 1
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
        if !pages.replace(original) {
            pages.insert(original, at: index)
            pages.total += 1
        }
    }

    private func report(_ error: any Error, message: String? = nil) {
        lastError = error
        errorMessage = message ?? (error as? APIError)?.message ?? String(describing: error)
    }
}
