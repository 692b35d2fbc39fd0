import Foundation
import SproutWire

extension TodoJSON {
    /// The todo with its timestamps read as dates.
    func todo() throws -> Todo {
        guard let created = LaravelTimestamp.date(from: createdAt), let updated = LaravelTimestamp.date(from: updatedAt) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unreadable timestamp in todo \(id)"))
        }
        return Todo(id: id, title: title, isDone: isDone, createdAt: created, updatedAt: updated)
    }
}

extension LaravelPage where Item == TodoJSON {
    func todoPage() throws -> TodoPage {
        TodoPage(todos: try data.map { try $0.todo() }, currentPage: meta.currentPage, lastPage: meta.lastPage, perPage: meta.perPage, total: meta.total)
    }
}
