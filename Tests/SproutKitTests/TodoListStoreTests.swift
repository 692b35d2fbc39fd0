import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import Testing

/// The REST_TODO list screen's behaviour, driven against a live Sprout server.
@MainActor
@Suite struct TodoListStoreTests {
    /// Seeds `count` todos named "todo 1" … "todo N" (oldest first); every fifth is done.
    static func seed(_ count: Int, base: URL) async throws -> [Todo] {
        let todos = TodosClient(client: APIClient(baseURL: base))
        var created: [Todo] = []
        for number in 1...count {
            created.append(try await todos.create(title: "todo \(number)", isDone: number.isMultiple(of: 5), encoding: .json))
        }
        return created
    }

    @Test func realisticSessionThroughEveryState() async throws {
        try await withLiveServer { base in
            let seeded = try await Self.seed(35, base: base)
            let titled = Dictionary(uniqueKeysWithValues: seeded.map { ($0.title, $0.id) })
            let gate = GatedTransport()
            let api = APIClient(baseURL: base, transport: gate)
            let server = TodosClient(client: APIClient(baseURL: base))
            let favouritesPath = temporaryDatabasePath()
            defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: favouritesPath).deletingLastPathComponent().path) }
            let store = TodoListStore(client: TodosClient(client: api), favourites: try TodoFavourites(path: favouritesPath))

            // Nothing loaded yet.
            #expect(store.todos.isEmpty && store.loadState == .idle && !store.hasLoaded && !store.hasMore)

            // First page: loading state while in flight, then ten newest first.
            gate.hold()
            let firstLoad = Task { await store.refresh() }
            try await gate.waitForRequests(1)
            #expect(store.loadState == .loadingFirstPage && store.isLoading)
            gate.release()
            await firstLoad.value
            #expect(store.loadState == .idle && store.hasLoaded && store.hasMore)
            #expect(store.todos.map(\.title) == (26...35).reversed().map { "todo \($0)" })
            #expect(store.total == 35)
            let query = try #require(gate.requests.last?.url?.query)
            #expect(query.contains("filter=created_at") && query.contains("order_by=desc") && query.contains("per_page=10") && query.contains("page=1"))

            // Scrolling: a row far from the end asks for nothing; the last rows ask for the next page,
            // and a second request while one is in flight is not started.
            await store.loadMoreIfNeeded(currentItem: store.todos[2])
            #expect(gate.requests.count == 1)
            gate.hold()
            let scroll = Task { await store.loadMoreIfNeeded(currentItem: store.todos[9]) }
            try await gate.waitForRequests(2)
            #expect(store.loadState == .loadingNextPage)
            let overlapping = Task { await store.loadNextPage() }
            try await Task.sleep(for: .milliseconds(100))
            #expect(gate.requests.count == 2)
            gate.release()
            await scroll.value
            await overlapping.value
            #expect(gate.requests.count == 2)
            #expect(store.todos.count == 20 && store.hasMore && store.loadState == .idle)

            // To the end of the 35: the end is known from meta, with no request past it.
            await store.loadNextPage()
            await store.loadNextPage()
            #expect(store.todos.count == 35 && !store.hasMore)
            #expect(store.todos.map(\.title) == (1...35).reversed().map { "todo \($0)" })
            let requestsAtEnd = gate.requests.count
            await store.loadNextPage()
            #expect(gate.requests.count == requestsAtEnd)

            // Favourite: kept on the device, across a restart of the store.
            let starred = try #require(titled["todo 30"])
            store.toggleFavourite(starred)
            #expect(store.isFavourite(starred))
            let reopened = TodoListStore(client: server, favourites: try TodoFavourites(path: favouritesPath))
            #expect(reopened.favouriteIDs == [starred])

            // Toggle done in place: same position, nothing reloaded, the server agrees.
            let toggled = try #require(titled["todo 34"])
            let requestsBeforeToggle = gate.requests.count
            await store.toggleDone(toggled)
            #expect(store.todos[1].id == toggled && store.todos[1].isDone)
            #expect(store.todos.count == 35)
            #expect(gate.requests.count == requestsBeforeToggle + 1)
            #expect(try await server.todo(id: toggled).isDone)

            // Edit the title in place.
            let edited = try #require(titled["todo 33"])
            #expect(await store.rename(edited, to: "todo 33 (edited)"))
            #expect(store.todos[2].title == "todo 33 (edited)")
            #expect(try await server.todo(id: edited).title == "todo 33 (edited)")

            // An invalid title is refused on the device, with the server's wording, and nothing is sent.
            let requestsBeforeInvalid = gate.requests.count
            #expect(await store.rename(edited, to: "abc") == false)
            #expect(store.errorMessage == TodoValidation.Failure.tooShort.message)
            #expect(store.todos[2].title == "todo 33 (edited)")
            #expect(gate.requests.count == requestsBeforeInvalid)
            store.dismissError()
            #expect(store.errorMessage == nil)

            // Delete: gone from the list and the server; a starred todo loses its star.
            await store.delete(starred)
            #expect(!store.todos.contains { $0.id == starred })
            #expect(store.todos.count == 34 && store.total == 34)
            #expect(!store.isFavourite(starred))
            #expect(try TodoFavourites(path: favouritesPath).all().isEmpty)
            await #expect { try await server.todo(id: starred) } throws: { ($0 as? APIError)?.statusCode == 404 }

            // Create: at the top, without losing the loaded pages.
            #expect(await store.create(title: "새로 추가한 할일입니다"))
            #expect(store.todos.first?.title == "새로 추가한 할일입니다")
            #expect(store.todos.count == 35 && store.total == 35)

            // Search: a fresh first page of matches, then its second page.
            await store.search("todo 1")
            #expect(store.query == "todo 1")
            #expect(store.todos.count == 10 && store.hasMore && store.total == 11)
            #expect(store.todos.allSatisfy { $0.title.hasPrefix("todo 1") })
            await store.loadNextPage()
            #expect(store.todos.count == 11 && !store.hasMore)
            #expect(Set(store.todos.map(\.title)) == Set(["todo 1"] + (10...19).map { "todo \($0)" }))

            // Back to the whole list, hiding completed todos.
            await store.search("")
            await store.setHidesCompleted(true)
            #expect(store.hidesCompleted && store.query.isEmpty)
            #expect(store.todos.count == 10 && store.todos.allSatisfy { !$0.isDone })
            // 35 todos now: 7 done at seeding, minus deleted "todo 30", plus "todo 34" marked done.
            #expect(store.total == 35 - 7)
            // Marking one done while completed todos are hidden takes it out of the list, and the server agrees.
            let hiddenNext = store.todos[3]
            await store.toggleDone(hiddenNext.id)
            #expect(!store.todos.contains { $0.id == hiddenNext.id })
            #expect(store.total == 27)
            #expect(try await server.todo(id: hiddenNext.id).isDone)
            await store.loadNextPage()
            await store.loadNextPage()
            #expect(store.todos.count == 27 && !store.hasMore)
            #expect(Set(store.todos.map(\.id)).count == 27)
            #expect(store.errorMessage == nil)
        }
    }

    @Test func deletesAndCreatesBetweenPagesNeitherSkipNorRepeat() async throws {
        try await withLiveServer { base in
            _ = try await Self.seed(30, base: base)
            let server = TodosClient(client: APIClient(baseURL: base))
            let store = TodoListStore(client: server)
            await store.refresh()
            await store.loadNextPage()
            #expect(store.todos.count == 20)
            // Two deletions and a creation while 20 are loaded shift the server's pages.
            await store.delete(store.todos[0].id)
            await store.delete(store.todos[5].id)
            _ = await store.create(title: "created between pages")
            await store.loadNextPage()
            #expect(!store.hasMore)
            let everything = try await server.list(perPage: 100)
            #expect(store.todos.map(\.id) == everything.todos.map(\.id))
            #expect(store.todos.count == 29)
        }
    }

    @Test func editingATodoSomeoneElseDeletedRemovesItWithTheServersMessage() async throws {
        try await withLiveServer { base in
            _ = try await Self.seed(12, base: base)
            let server = TodosClient(client: APIClient(baseURL: base))
            let store = TodoListStore(client: server)
            await store.refresh()
            let victim = store.todos[4]
            let neighbour = store.todos[5]
            // Someone else deletes it; this store still shows it. The server's 404 means it is gone: no ghost.
            try await server.delete(id: victim.id)
            await store.toggleDone(victim.id)
            #expect(!store.todos.contains { $0.id == victim.id })
            #expect(store.todos[4] == neighbour)
            #expect(store.total == 11)
            #expect(store.errorMessage == "할일을 찾을 수 없습니다.")
            #expect((store.lastError as? APIError)?.statusCode == 404)
        }
    }

    @Test func aRenameThatFailsInTransitIsRolledBackInPlace() async throws {
        try await withLiveServer { base in
            _ = try await Self.seed(5, base: base)
            let live = URLSessionTransport()
            // The network drops every PUT: a refusal the live server cannot produce for a valid title.
            let flaky = StubTransport { request in
                if request.httpMethod == "PUT" { throw URLError(.networkConnectionLost) }
                return try await live.send(request)
            }
            let store = TodoListStore(client: TodosClient(client: APIClient(baseURL: base, transport: flaky)))
            await store.refresh()
            let before = store.todos
            #expect(await store.rename(before[2].id, to: "a new title that never arrives") == false)
            #expect(store.todos == before)
            await store.toggleDone(before[3].id)
            #expect(store.todos == before)
            #expect(store.total == 5)
            #expect(store.errorMessage != nil)
        }
    }

    @Test func aTodoRenamedOutOfTheSearchLeavesItAndPagingStaysWhole() async throws {
        try await withLiveServer { base in
            _ = try await Self.seed(30, base: base)
            let server = TodosClient(client: APIClient(baseURL: base))
            let store = TodoListStore(client: server)
            await store.search("todo")
            #expect(store.todos.count == 10 && store.total == 30)
            let renamed = store.todos[3]
            #expect(await store.rename(renamed.id, to: "renamed away from the search"))
            #expect(!store.todos.contains { $0.id == renamed.id })
            #expect(store.total == 29)
            await store.loadNextPage()
            await store.loadNextPage()
            #expect(!store.hasMore)
            let everything = try await server.search("todo", perPage: 100)
            #expect(store.todos.map(\.id) == everything.todos.map(\.id))
        }
    }

    @Test func aTodoDeletedWhileAPageIsOnItsWayDoesNotComeBack() async throws {
        try await withLiveServer { base in
            _ = try await Self.seed(25, base: base)
            let gate = GatedTransport()
            let store = TodoListStore(client: TodosClient(client: APIClient(baseURL: base, transport: gate)))
            await store.refresh()
            await store.loadNextPage()
            // One deletion makes the next load ask for page 2 again, which holds the row deleted below.
            await store.delete(store.todos[18].id)
            let victim = store.todos[15].id
            gate.hold()
            let load = Task { await store.loadNextPage() }
            try await gate.waitForAnswers(gate.answerCount + 1)
            // The server has answered page 2 (victim included); the answer is held while the victim is deleted.
            let deleting = Task { await store.delete(victim) }
            try await gate.waitForAnswers(gate.answerCount + 1)
            gate.release()
            await load.value
            await deleting.value
            #expect(!store.todos.contains { $0.id == victim })
            await store.loadNextPage()
            #expect(!store.hasMore)
            #expect(!store.todos.contains { $0.id == victim })
            #expect(store.todos.count == 23 && Set(store.todos.map(\.id)).count == 23)
            #expect(store.total == 23)
        }
    }
}
