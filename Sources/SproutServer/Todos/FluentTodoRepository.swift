import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// `TodoRepository` over FluentKit; the same code serves SQLite and PostgreSQL.
struct FluentTodoRepository: TodoRepository {
    let database: SproutDatabase

    func page(_ request: TodoPageRequest, owner: TodoOwner) async throws -> TodoPage {
        let db = database.database()
        let filtered = filteredQuery(request, owner: owner, on: db)
        let total = try await filtered.count()
        let offset = (request.page - 1) * request.perPage
        guard offset < total else { return TodoPage(todos: [], total: total) }
        let sortKey: KeyPath<TodoModel, FieldProperty<TodoModel, Date>> =
            request.sortField == .createdAt ? \.$createdAt : \.$updatedAt
        let direction: DatabaseQuery.Sort.Direction = request.order == .newestFirst ? .descending : .ascending
        let models = try await filteredQuery(request, owner: owner, on: db)
            .sort(sortKey, direction)
            .sort(\.$id, direction)  // ties (same second) broken by id, in the same direction
            .range(offset..<(offset + request.perPage))
            .all()
        return TodoPage(todos: models.map(\.todo), total: total)
    }

    func find(id: Int, owner: TodoOwner) async throws -> Todo? {
        try await ownedQuery(owner, on: database.database()).filter(\.$id == id).first()?.todo
    }

    func create(title: String, isDone: Bool, owner: TodoOwner, at now: Date) async throws -> Todo {
        let model = TodoModel(title: title, isDone: isDone, ownerID: owner.accountID, createdAt: now)
        try await model.create(on: database.database())
        return model.todo
    }

    func update(id: Int, with changes: TodoChanges, owner: TodoOwner, at now: Date) async throws -> Todo? {
        try await database.database().transaction { db in
            guard let model = try await ownedQuery(owner, on: db).filter(\.$id == id).first() else { return nil }
            var changed = false
            if let title = changes.title, title != model.title {
                model.title = title
                model.titleFolded = TodoModel.fold(title)
                changed = true
            }
            if let isDone = changes.isDone, isDone != model.isDone {
                model.isDone = isDone
                changed = true
            }
            if changed {
                model.updatedAt = max(now, model.createdAt)
                try await model.update(on: db)
            }
            return model.todo
        }
    }

    func delete(id: Int, owner: TodoOwner) async throws -> Todo? {
        try await database.database().transaction { db in
            guard let model = try await ownedQuery(owner, on: db).filter(\.$id == id).first() else { return nil }
            try await model.delete(on: db)
            return model.todo
        }
    }

    private func ownedQuery(_ owner: TodoOwner, on db: any Database) -> QueryBuilder<TodoModel> {
        let query = TodoModel.query(on: db)
        if let accountID = owner.accountID {
            return query.filter(\.$ownerID == accountID)
        }
        return query.filter(\.$ownerID == nil)
    }

    private func filteredQuery(_ request: TodoPageRequest, owner: TodoOwner, on db: any Database) -> QueryBuilder<TodoModel> {
        let query = ownedQuery(owner, on: db)
        if let isDone = request.isDone {
            query.filter(\.$isDone == isDone)
        }
        if let text = request.titleContains {
            query.filter(.sql(Contains(column: "title_folded", text: TodoModel.fold(text))))
        }
        return query
    }
}

/// `column LIKE '%text%'` with LIKE's wildcards in the text escaped, so `50%` finds "50%" only.
struct Contains: SQLExpression {
    let column: String
    let text: String

    func serialize(to serializer: inout SQLSerializer) {
        let escaped = text
            .replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        SQLColumn(column).serialize(to: &serializer)
        serializer.write(" LIKE ")
        SQLBind("%\(escaped)%").serialize(to: &serializer)
        serializer.write(" ESCAPE '\\'")
    }
}
