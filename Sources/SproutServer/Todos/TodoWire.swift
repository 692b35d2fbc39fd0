import SproutWire

/// `{data, message}`: every single-todo answer, create and delete included.
typealias TodoEnvelope = LaravelEnvelope<TodoJSON>
/// `{data, meta, message}`: list and search answers.
typealias TodoListEnvelope = LaravelPage<TodoJSON>

extension TodoJSON {
    init(_ todo: Todo) {
        self.init(
            id: todo.id,
            title: todo.title,
            isDone: todo.isDone,
            createdAt: LaravelTimestamp.string(from: todo.createdAt),
            updatedAt: LaravelTimestamp.string(from: todo.updatedAt)
        )
    }
}

extension LaravelPage where Item == TodoJSON {
    init(page: TodoPage, request: TodoPageRequest, message: String) {
        self.init(
            data: page.todos.map(TodoJSON.init),
            meta: LaravelPageMeta(page: request.page, perPage: request.perPage, count: page.todos.count, total: page.total),
            message: message
        )
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

// The todos answers write themselves (keys in sorted order, as the shared JSONEncoder sorts them).
extension TodoJSON: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"created_at":"#)
        writer.string(createdAt)
        writer.raw(#","id":"#)
        writer.int(id)
        writer.raw(#","is_done":"#)
        writer.bool(isDone)
        writer.raw(#","title":"#)
        writer.string(title)
        writer.raw(#","updated_at":"#)
        writer.string(updatedAt)
        writer.raw("}")
    }
}

extension LaravelEnvelope: JSONWritable where Item: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"data":"#)
        data.writeJSON(into: &writer)
        writer.raw(#","message":"#)
        writer.string(message)
        writer.raw("}")
    }
}

extension LaravelPage: JSONWritable where Item: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"data":["#)
        for (index, item) in data.enumerated() {
            if index > 0 { writer.raw(",") }
            item.writeJSON(into: &writer)
        }
        writer.raw(#"],"message":"#)
        writer.string(message)
        writer.raw(#","meta":{"current_page":"#)
        writer.int(meta.currentPage)
        writer.raw(#","from":"#)
        writer.optionalInt(meta.from)
        writer.raw(#","last_page":"#)
        writer.int(meta.lastPage)
        writer.raw(#","per_page":"#)
        writer.int(meta.perPage)
        writer.raw(#","to":"#)
        writer.optionalInt(meta.to)
        writer.raw(#","total":"#)
        writer.int(meta.total)
        writer.raw("}}")
    }
}
