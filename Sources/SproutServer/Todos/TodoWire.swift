import SproutWire

/// `{data, message}`: every single-todo answer, create and delete included, written from the model (the wire
/// shape is SproutWire's `LaravelEnvelope<TodoJSON>`; the two dates are written in place, not made into strings).
struct TodoAnswer: JSONWritable {
    var todo: Todo
    var message: String

    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"data":"#)
        todo.writeJSON(into: &writer)
        writer.raw(#","message":"#)
        writer.string(message)
        writer.raw("}")
    }
}

/// `{data, meta, message}`: list and search answers (SproutWire's `LaravelPage<TodoJSON>`), written from the models.
struct TodoPageAnswer: JSONWritable {
    var todos: [Todo]
    var meta: LaravelPageMeta
    var message: String

    init(page: TodoPage, request: TodoPageRequest, message: String) {
        todos = page.todos
        meta = LaravelPageMeta(page: request.page, perPage: request.perPage, count: page.todos.count, total: page.total)
        self.message = message
    }

    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"data":["#)
        for (index, todo) in todos.enumerated() {
            if index > 0 { writer.raw(",") }
            todo.writeJSON(into: &writer)
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

/// Success messages. Only `할일 조회 성공` was captured from the original; the rest follow its style.
enum TodoMessage {
    static let list = "할일 목록 조회 성공"
    static let search = "할일 검색 성공"
    static let show = "할일 조회 성공"
    static let create = "할일 추가 성공"
    static let update = "할일 수정 성공"
    static let delete = "할일 삭제 성공"
}

// A todo as `TodoJSON` encodes it (keys in sorted order, as the shared JSONEncoder sorts them; Laravel's dates).
extension Todo: JSONWritable {
    func writeJSON(into writer: inout JSONWriter) {
        writer.raw(#"{"created_at":"#)
        writer.timestamp(createdAt, fractionDigits: LaravelTimestamp.fractionDigits)
        writer.raw(#","id":"#)
        writer.int(id)
        writer.raw(#","is_done":"#)
        writer.bool(isDone)
        writer.raw(#","title":"#)
        writer.string(title)
        writer.raw(#","updated_at":"#)
        writer.timestamp(updatedAt, fractionDigits: LaravelTimestamp.fractionDigits)
        writer.raw("}")
    }
}
