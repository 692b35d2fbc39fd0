import Foundation

/// The Laravel API's JSON for one todo: `{id, title, is_done, created_at, updated_at}`.
struct TodoJSON: Encodable {
    let id: Int
    let title: String
    let isDone: Bool
    let createdAt: String
    let updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, title
        case isDone = "is_done"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ todo: Todo) {
        id = todo.id
        title = todo.title
        isDone = todo.isDone
        createdAt = LaravelTimestamp.string(from: todo.createdAt)
        updatedAt = LaravelTimestamp.string(from: todo.updatedAt)
    }
}

/// `{data, message}`: every single-todo answer, create and delete included.
struct TodoEnvelope: Encodable {
    let data: TodoJSON
    let message: String
}

/// `{data, meta, message}`: list and search answers, with Laravel's paginator fields.
struct TodoListEnvelope: Encodable {
    let data: [TodoJSON]
    let meta: Meta
    let message: String

    struct Meta: Encodable {
        let currentPage: Int
        let from: Int?
        let lastPage: Int
        let perPage: Int
        let to: Int?
        let total: Int

        enum CodingKeys: String, CodingKey {
            case currentPage = "current_page"
            case from
            case lastPage = "last_page"
            case perPage = "per_page"
            case to, total
        }

        // Encoded by hand so that `from` and `to` appear as `null` rather than disappearing.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(currentPage, forKey: .currentPage)
            try container.encode(from, forKey: .from)
            try container.encode(lastPage, forKey: .lastPage)
            try container.encode(perPage, forKey: .perPage)
            try container.encode(to, forKey: .to)
            try container.encode(total, forKey: .total)
        }
    }

    init(page: TodoPage, request: TodoPageRequest, message: String) {
        data = page.todos.map(TodoJSON.init)
        let offset = (request.page - 1) * request.perPage
        meta = Meta(
            currentPage: request.page,
            from: page.todos.isEmpty ? nil : offset + 1,
            lastPage: max(1, (page.total + request.perPage - 1) / request.perPage),
            perPage: request.perPage,
            to: page.todos.isEmpty ? nil : offset + page.todos.count,
            total: page.total
        )
        self.message = message
    }
}

/// Success messages. Only `할일 조회 성공` was captured from the original; the rest follow its style.
enum TodoMessage {
    static let list = "할일 목록 조회 성공"
    static let search = "할일 검색 성공"
    static let show = "할일 조회 성공"
    static let create = "할일 추가 성공"
    static let update = "할일 수정 성공"
    static let delete = "할일 삭제 성공"
}
