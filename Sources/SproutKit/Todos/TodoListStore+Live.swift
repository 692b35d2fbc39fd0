import Foundation
import SproutWire

/// The todo list kept live by the `todos` topic of an `EventStream` (changes made on other devices).
extension TodoListStore: LiveListStore {
    /// Applies one live update of the `todos` topic; other topics' events are ignored.
    ///
    /// A todo created or changed elsewhere is shown where the newest-first order puts it when it belongs to the
    /// list in effect (search, "hide completed"), replaced where shown, and taken out when it no longer belongs
    /// (renamed out of the search, done while completed ones are hidden); a deleted one leaves the list.
    /// `reset` loads page 1 again.
    public func apply(_ event: LiveEvent) async {
        guard event.topic == LiveTopic.todos.name else { return }
        switch event {
        case .ready:
            return
        case .reset:
            await refresh()
        case .change(let change):
            guard change.entity == "todo", let todoID = change.intID else { return }
            switch change.kind {
            case .created, .updated:
                guard hasLoaded, let todo = await row(of: change, id: todoID) else { return }
                if !belongsToCurrentList(todo) {
                    removeFromList(todoID)
                } else if !pages.replace(todo), pages.insert(todo, orderedBy: Self.newer) {
                    pages.total += 1
                }
            case .deleted:
                removeFromList(todoID)
            case nil:
                return
            }
        }
    }

    /// The event's todo: its `item` read as an element of the list's `data`, else fetched; nil when neither works.
    private func row(of change: LiveChange, id: Int) async -> Todo? {
        if let todo = try? change.item(as: TodoJSON.self)?.todo() { return todo }
        return try? await client.todo(id: id)
    }

    /// Newest first: by creation time, then by id, as the server orders the list.
    private static func newer(_ a: Todo, _ b: Todo) -> Bool {
        a.createdAt != b.createdAt ? a.createdAt > b.createdAt : a.id > b.id
    }
}
