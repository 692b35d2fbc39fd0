import Foundation
import SproutWire
import HTTPTypes
import Hummingbird

/// The Laravel learning server's todos API, mounted at `/api/v2` and `/api/v1` (same behaviour, same data).
struct TodosController<Repository: TodoRepository, Context: CallerRequestContext> {
    let repository: Repository
    let maxBodySize: Int
    /// The time of day (`buildApplication` hands in the application's).
    var clock = WallClock.system

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        routes.get("todos", use: list)
        routes.get("todos/search", use: search)
        routes.get("todos/{id}", use: show)
        routes.post("todos", use: create)
        routes.post("todos-json", use: create)
        routes.put("todos/{id}", use: update)
        routes.post("todos-json/{id}", use: update)
        routes.delete("todos/{id}", use: delete)
        return routes
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        try await page(request, context: context, searching: false, message: TodoMessage.list)
    }

    @Sendable func search(_ request: Request, context: Context) async throws -> Response {
        try await page(request, context: context, searching: true, message: TodoMessage.search)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let owner = try owner(context)
        let id = try todoID(context)
        guard let todo = try await repository.find(id: id, owner: owner) else { throw LaravelError.todoNotFound }
        return try Response.json(TodoAnswer(todo: todo, message: TodoMessage.show))
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        let owner = try owner(context)
        let fields = try await bodyFields(request)
        let input = try TodoInput.creation(from: fields)
        let todo = try await repository.create(title: input.title, isDone: input.isDone, owner: owner, at: clock.now.truncatedToSeconds)
        return try Response.json(TodoAnswer(todo: todo, message: TodoMessage.create))
    }

    @Sendable func update(_ request: Request, context: Context) async throws -> Response {
        let owner = try owner(context)
        let id = try todoID(context)
        let changes = try TodoInput.changes(from: try await bodyFields(request))
        let todo = try await repository.update(id: id, with: changes, owner: owner, at: clock.now.truncatedToSeconds)
        guard let todo else { throw LaravelError.todoNotFound }
        return try Response.json(TodoAnswer(todo: todo, message: TodoMessage.update))
    }

    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        let owner = try owner(context)
        let id = try todoID(context)
        guard let todo = try await repository.delete(id: id, owner: owner) else { throw LaravelError.todoNotFound }
        return try Response.json(TodoAnswer(todo: todo, message: TodoMessage.delete))
    }

    private func page(_ request: Request, context: Context, searching: Bool, message: String) async throws -> Response {
        let owner = try owner(context)
        let pageRequest = try TodoInput.pageRequest(from: request.queryFields, searching: searching)
        let page: TodoPage
        if let text = pageRequest.titleContains, !TodoInput.searchCanMatch(text) {
            page = TodoPage(todos: [], total: 0)
        } else {
            page = try await repository.page(pageRequest, owner: owner)
        }
        return try Response.json(TodoPageAnswer(page: page, request: pageRequest, message: message))
    }

    /// A path id that is not a positive integer names no todo: 404, as Laravel's route binding answers.
    private func todoID(_ context: Context) throws(LaravelError) -> Int {
        guard let raw = context.parameters.get("id"), let id = Int(raw), id > 0 else { throw .todoNotFound }
        return id
    }

    private func bodyFields(_ request: Request) async throws -> FormFields {
        try await request.bodyFields(limit: maxBodySize, refusal: LaravelError.unreadableBody)
    }

    /// Anonymous calls work on the original's one shared list; an account's token (or web session) on that
    /// account's own list. A token that names no one is Laravel's 401 `Unauthenticated.`, never the shared list.
    private func owner(_ context: Context) throws(LaravelError) -> TodoOwner {
        switch context.caller {
        case .anonymous: .anonymous
        case .account(let account, _): .account(account.id)
        case .rejected, .boardAPIToken: throw .unauthenticated
        }
    }
}
