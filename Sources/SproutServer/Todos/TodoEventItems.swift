import NIOCore
import SproutWire

/// A todo as `GET /api/v2/todos` lists it in `data`. Its topic is its owner's list (or the shared one), so only
/// those who may read the list are sent it; nothing in the row depends on the caller.
struct TodoItems: EventItemReader {
    let repository: SQLTodoRepository

    func items(ids: [String]) async throws -> [String: EventItem] {
        try await EventItems.rows(for: ids) { ids in
            var rows: [Int: ByteBuffer] = [:]
            for todo in try await repository.todos(ids: ids) {
                rows[todo.id] = EventItems.written(todo)
            }
            return rows
        }
    }
}
