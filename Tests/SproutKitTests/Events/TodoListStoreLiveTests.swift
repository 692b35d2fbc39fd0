import Foundation
import SproutKit
import Testing

/// `TodoListStore.apply` against a live server: changes made on another device reach the loaded list.
@MainActor
@Suite struct TodoListStoreLiveTests {
    /// The list element of todo `id`, as `GET /api/v2/todos` answers it.
    static func item(_ id: Int, base: URL) async throws -> Data {
        let list = try await APIClient(baseURL: base).send(Request<Data>(path: "/api/v2/todos", query: [("page", "1"), ("per_page", "100")]))
        return try LiveFixture.element(of: list, under: "data", id: id)
    }

    @Test func changesFromAnotherDeviceReachTheList() async throws {
        try await withLiveServer { base in
            let seeded = try await TodoListStoreTests.seed(3, base: base)
            let elsewhere = TodosClient(client: APIClient(baseURL: base))
            let store = TodoListStore(client: TodosClient(client: APIClient(baseURL: base)))
            await store.refresh()
            #expect(store.todos.map(\.title) == ["todo 3", "todo 2", "todo 1"])

            let new = try await elsewhere.create(title: "다른 기기에서")
            await store.apply(LiveFixture.change(.todos, "todo.created", id: new.id, item: try await Self.item(new.id, base: base)))
            #expect(store.todos.map(\.title) == ["다른 기기에서", "todo 3", "todo 2", "todo 1"] && store.total == 4)

            _ = try await elsewhere.update(id: seeded[1].id, isDone: true)
            await store.apply(LiveFixture.change(.todos, "todo.updated", id: seeded[1].id, item: try await Self.item(seeded[1].id, base: base)))
            #expect(store.todos.first { $0.id == seeded[1].id }?.isDone == true)

            _ = try await elsewhere.delete(id: seeded[0].id)
            await store.apply(LiveFixture.change(.todos, "todo.deleted", id: seeded[0].id))
            #expect(store.todos.map(\.title) == ["다른 기기에서", "todo 3", "todo 2"] && store.total == 3)

            // Without item the todo is fetched.
            let fetched = try await elsewhere.create(title: "읽어 온 할 일")
            await store.apply(LiveFixture.change(.todos, "todo.created", id: fetched.id))
            #expect(store.todos.first?.title == "읽어 온 할 일")
        }
    }

    @Test func aTodoDoneElsewhereLeavesAListThatHidesCompletedOnesAndAResetReloads() async throws {
        try await withLiveServer { base in
            let seeded = try await TodoListStoreTests.seed(3, base: base)
            let elsewhere = TodosClient(client: APIClient(baseURL: base))
            let store = TodoListStore(client: TodosClient(client: APIClient(baseURL: base)))
            await store.setHidesCompleted(true)
            #expect(store.todos.count == 3)
            _ = try await elsewhere.update(id: seeded[2].id, isDone: true)
            await store.apply(LiveFixture.change(.todos, "todo.updated", id: seeded[2].id, item: try await Self.item(seeded[2].id, base: base)))
            #expect(store.todos.map(\.title) == ["todo 2", "todo 1"] && store.total == 2)
            // Undone elsewhere: it belongs again, and returns where newest first puts it.
            _ = try await elsewhere.update(id: seeded[2].id, isDone: false)
            await store.apply(LiveFixture.change(.todos, "todo.updated", id: seeded[2].id, item: try await Self.item(seeded[2].id, base: base)))
            #expect(store.todos.map(\.title) == ["todo 3", "todo 2", "todo 1"])

            _ = try await elsewhere.create(title: "todo 4")
            await store.apply(.reset(topic: "todos"))
            #expect(store.todos.map(\.title) == ["todo 4", "todo 3", "todo 2", "todo 1"])
        }
    }
}
