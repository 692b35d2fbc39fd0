import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import Testing

/// The list store against odd settings and odd servers: it neither traps, nor loops for ever, nor undoes what
/// the server did.
@MainActor
@Suite struct TodoListStoreLimitsTests {
    @Test func aPageSizeOfZeroIsTakenAsOneInsteadOfTrapping() async throws {
        try await withLiveServer { base in
            _ = try await TodoListStoreTests.seed(3, base: base)
            let store = TodoListStore(client: TodosClient(client: APIClient(baseURL: base)), perPage: 0)
            #expect(store.perPage == 1)
            await store.refresh()
            await store.loadNextPage()
            #expect(store.todos.count == 2)
            #expect(TodoListStore(client: TodosClient(client: APIClient(baseURL: base)), perPage: 5000).perPage == 100)
        }
    }

    /// A server whose `meta` promises a thousand pages but serves the same rows again on each of them.
    @Test func aServerThatKeepsPromisingRowsThatNeverComeCannotKeepTheStoreFetching() async throws {
        try await withLiveServer { base in
            _ = try await TodoListStoreTests.seed(10, base: base)
            let live = URLSessionTransport()
            let counter = RequestCounter()
            let lying = StubTransport { request in
                guard counter.next() <= 50 else { throw StubError.offline }  // the old store looped until here
                var components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
                components.queryItems = components.queryItems?.map { $0.name == "page" ? URLQueryItem(name: "page", value: "1") : $0 }
                var forwarded = request
                forwarded.url = components.url
                let (data, response) = try await live.send(forwarded)
                var json = try JSONSerialization.jsonObject(with: data) as! [String: Any]
                var meta = json["meta"] as! [String: Any]
                meta["last_page"] = 1000
                meta["total"] = 10_000
                meta["current_page"] = Int(URLComponents(url: request.url!, resolvingAgainstBaseURL: false)?
                    .queryItems?.first { $0.name == "page" }?.value ?? "1")
                json["meta"] = meta
                return (try JSONSerialization.data(withJSONObject: json), response)
            }
            let store = TodoListStore(client: TodosClient(client: APIClient(baseURL: base, transport: lying)))
            await store.refresh()
            #expect(store.todos.count == 10 && store.hasMore)
            await store.loadNextPage()
            #expect(counter.count <= 6, "one load fetched \(counter.count - 1) pages")
            #expect(store.todos.count == 10)
            #expect(store.errorMessage == nil)
        }
    }

    @Test func aToggleCancelledAfterTheServerAnsweredStaysDone() async throws {
        try await withLiveServer { base in
            _ = try await TodoListStoreTests.seed(3, base: base)
            let gate = GatedTransport()
            let store = TodoListStore(client: TodosClient(client: APIClient(baseURL: base, transport: gate)))
            await store.refresh()
            let target = try #require(store.todos.first { !$0.isDone })
            gate.hold()
            let answered = gate.answerCount
            let toggle = Task { await store.toggleDone(target.id) }
            try await gate.waitForAnswers(answered + 1)
            toggle.cancel()
            gate.release()
            await toggle.value
            #expect(store.todos.first { $0.id == target.id }?.isDone == true)
            #expect(store.errorMessage == nil)
            let onServer = try await TodosClient(client: APIClient(baseURL: base)).todo(id: target.id)
            #expect(onServer.isDone)
        }
    }
}

final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.withLock { value += 1; return value } }
    var count: Int { lock.withLock { value } }
}
