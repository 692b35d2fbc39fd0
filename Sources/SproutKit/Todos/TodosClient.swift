import Foundation
import SproutWire

/// Every endpoint of the Todos service (the Laravel learning API), with dates as `Date`.
public struct TodosClient: Sendable {
    /// The client requests go through.
    public let client: APIClient
    /// `v2` (what REST_TODO uses) or `v1`; both reach the same data.
    public let version: String

    /// Todos calls through `client`, under `/api/{version}`.
    public init(client: APIClient, version: String = "v2") {
        self.client = client
        self.version = version
    }

    /// `GET /todos`: one page of the list.
    /// - Parameter isDone: `false` hides completed todos, `true` shows only them, `nil` shows all.
    public func list(
        page: Int = 1, perPage: Int = 10, sortedBy field: TodoSortField = .createdAt, order: TodoSortOrder = .newestFirst, isDone: Bool? = nil
    ) async throws(APIError) -> TodoPage {
        try await client.send(pageRequest(path: "todos", query: [], page: page, perPage: perPage, field: field, order: order, isDone: isDone))
    }

    /// `GET /todos/search`: one page of the todos whose title contains `query` (case-insensitive).
    public func search(
        _ query: String, page: Int = 1, perPage: Int = 10, sortedBy field: TodoSortField = .createdAt, order: TodoSortOrder = .newestFirst,
        isDone: Bool? = nil
    ) async throws(APIError) -> TodoPage {
        try await client.send(pageRequest(path: "todos/search", query: [("query", query)], page: page, perPage: perPage, field: field, order: order, isDone: isDone))
    }

    /// `GET /todos/{id}`.
    public func todo(id: Int) async throws(APIError) -> Todo {
        try await client.send(single(.get, "todos/\(id)"))
    }

    /// Creates a todo: `POST /todos-json` for JSON (what REST_TODO does), `POST /todos` for a form.
    public func create(title: String, isDone: Bool = false, encoding: TodoBodyEncoding = .json) async throws(APIError) -> Todo {
        let fields = [("title", title), ("is_done", isDone ? "true" : "false")]
        switch encoding {
        case .json:
            return try await client.send(single(.post, "todos-json", body: .encodable(TodoBodyJSON(title: title, isDone: isDone))))
        case .form:
            return try await client.send(single(.post, "todos", body: .form(fields)))
        case .multipart:
            return try await client.send(single(.post, "todos", body: .multipart(Self.multipart(fields))))
        }
    }

    /// Changes a todo; a `nil` field keeps its value. `.form` and `.multipart` use `PUT /todos/{id}` (REST_TODO's
    /// urlencoded PUT), `.json` uses `POST /todos-json/{id}`.
    public func update(id: Int, title: String? = nil, isDone: Bool? = nil, encoding: TodoBodyEncoding = .form) async throws(APIError) -> Todo {
        var fields: [(String, String)] = []
        if let title { fields.append(("title", title)) }
        if let isDone { fields.append(("is_done", isDone ? "true" : "false")) }
        switch encoding {
        case .json:
            return try await client.send(single(.post, "todos-json/\(id)", body: .encodable(TodoBodyJSON(title: title, isDone: isDone))))
        case .form:
            return try await client.send(single(.put, "todos/\(id)", body: .form(fields)))
        case .multipart:
            return try await client.send(single(.put, "todos/\(id)", body: .multipart(Self.multipart(fields))))
        }
    }

    /// `DELETE /todos/{id}`; returns the todo as it was.
    @discardableResult
    public func delete(id: Int) async throws(APIError) -> Todo {
        try await client.send(single(.delete, "todos/\(id)"))
    }

    private func path(_ suffix: String) -> String { "/api/\(version)/\(suffix)" }

    private func single(_ method: HTTPMethod, _ suffix: String, body: RequestBody? = nil) -> Request<Todo> {
        Request(method: method, path: path(suffix), body: body) { data in
            try JSONDecoder().decode(LaravelEnvelope<TodoJSON>.self, from: data).data.todo()
        }
    }

    private func pageRequest(
        path suffix: String, query: [(String, String?)], page: Int, perPage: Int, field: TodoSortField, order: TodoSortOrder, isDone: Bool?
    ) -> Request<TodoPage> {
        let items = query + [
            ("filter", field.rawValue), ("order_by", order.rawValue), ("page", String(page)), ("per_page", String(perPage)),
            ("is_done", isDone.map { $0 ? "true" : "false" }),
        ]
        return Request(path: path(suffix), query: items) { data in
            try JSONDecoder().decode(LaravelPage<TodoJSON>.self, from: data).todoPage()
        }
    }

    private static func multipart(_ fields: [(String, String)]) -> MultipartFormData {
        var form = MultipartFormData()
        for (name, value) in fields { form.append(value, named: name) }
        return form
    }
}
