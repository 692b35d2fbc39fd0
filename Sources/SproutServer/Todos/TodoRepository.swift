import Foundation

/// Storage for todos. Every call is scoped to one owner's list: another owner's todo is "not found".
public protocol TodoRepository: Sendable {
    func page(_ request: TodoPageRequest, owner: TodoOwner) async throws -> TodoPage
    func find(id: Int, owner: TodoOwner) async throws -> Todo?
    func create(title: String, isDone: Bool, owner: TodoOwner, at now: Date) async throws -> Todo
    /// Applies `changes` and returns the todo; `updatedAt` moves only if a value really changed.
    func update(id: Int, with changes: TodoChanges, owner: TodoOwner, at now: Date) async throws -> Todo?
    /// Deletes the todo and returns it as it was.
    func delete(id: Int, owner: TodoOwner) async throws -> Todo?
}
