import Foundation
import SproutWire

/// Turns request fields into validated todo values, with the Laravel-style 422 errors the apps display.
/// Messages are Korean, like the original server's own messages.
enum TodoInput {
    static let minimumTitleLength = 6
    static let maximumTitleLength = 255
    static let maximumPerPage = 100
    /// Pages past this are certainly empty; the cap keeps the offset arithmetic far from overflow.
    static let maximumPage = 1_000_000_000

    typealias FieldError = (field: String, message: String)

    /// `POST /todos`, `POST /todos-json`: a title is required; `is_done` defaults to false.
    static func creation(from fields: FormFields) throws(LaravelError) -> (title: String, isDone: Bool) {
        var errors: [FieldError] = []
        let title = validTitle(fields["title"], errors: &errors)
        let isDone = validIsDone(fields["is_done"], emptyMeansAbsent: false, errors: &errors)
        guard errors.isEmpty, let title else { throw .validation(errors) }
        return (title, isDone ?? false)
    }

    /// `PUT /todos/{id}`, `POST /todos-json/{id}`: only the fields present change; a present title obeys the
    /// create rule. Unknown fields are ignored, so a body with none of ours changes nothing.
    static func changes(from fields: FormFields) throws(LaravelError) -> TodoChanges {
        var errors: [FieldError] = []
        var changes = TodoChanges()
        if fields["title"] != nil {
            changes.title = validTitle(fields["title"], errors: &errors)
        }
        changes.isDone = validIsDone(fields["is_done"], emptyMeansAbsent: false, errors: &errors)
        guard errors.isEmpty else { throw .validation(errors) }
        return changes
    }

    /// The list and search query: `page`, `per_page`, `filter`, `order_by`, `is_done` and, for search, `query`.
    static func pageRequest(from query: FormFields, searching: Bool) throws(LaravelError) -> TodoPageRequest {
        var errors: [FieldError] = []
        var request = TodoPageRequest()
        if let page = integer(query["page"], field: "page", label: "페이지(page)", errors: &errors) {
            request.page = min(max(page, 1), maximumPage)
        }
        if let perPage = integer(query["per_page"], field: "per_page", label: "페이지 크기(per_page)", errors: &errors) {
            request.perPage = min(max(perPage, 1), maximumPerPage)
        }
        if let raw = nonEmptyText(query["filter"]) {
            if let field = TodoSortField(rawValue: raw.lowercased()) {
                request.sortField = field
            } else {
                errors.append(("filter", "정렬 기준(filter)은 created_at, updated_at 중 하나여야 합니다."))
            }
        }
        if let raw = nonEmptyText(query["order_by"]) {
            if let order = TodoSortOrder(rawValue: raw.lowercased()) {
                request.order = order
            } else {
                errors.append(("order_by", "정렬 방향(order_by)은 asc, desc 중 하나여야 합니다."))
            }
        }
        request.isDone = validIsDone(query["is_done"], emptyMeansAbsent: true, errors: &errors)
        if searching {
            let text = nonEmptyText(query["query"])?.trimmingWhitespace
            if query["query"] == .invalidText {
                errors.append(("query", "검색어(query)에 쓸 수 없는 문자가 있습니다. (UTF-8이 아니거나 NUL 문자)"))
            } else if let text, !text.isEmpty {
                request.titleContains = text
            } else {
                errors.append(("query", "검색어(query)는 필수입니다."))
            }
        }
        guard errors.isEmpty else { throw .validation(errors) }
        return request
    }

    /// Whether a search text could be found in any title at all. Titles are compared folded (NFC, lowercased),
    /// and lowercasing turns one code point into at most three, so a folded text longer than three times the
    /// longest title matches nothing, and is answered without touching the database.
    static func searchCanMatch(_ text: String) -> Bool {
        Todo.fold(text).unicodeScalars.count <= maximumTitleLength * 3
    }

    private static func validTitle(_ value: FieldValue?, errors: inout [FieldError]) -> String? {
        switch value {
        case nil, .null:
            errors.append(("title", "제목(title)은 필수입니다."))
        case .invalidText:
            errors.append(("title", "제목(title)에 쓸 수 없는 문자가 있습니다. (UTF-8이 아니거나 NUL 문자)"))
        case .bool, .structured:
            errors.append(("title", "제목(title)은 문자열이어야 합니다."))
        case .text, .number:
            // Laravel's TrimStrings middleware trims every input before validation, and stores the trimmed text.
            let title = (value?.asText ?? "").trimmingWhitespace
            // Counted in Unicode code points, as PHP's mb_strlen and PostgreSQL's varchar do.
            let length = title.unicodeScalars.count
            if length == 0 {
                errors.append(("title", "제목(title)은 필수입니다."))
            } else if length < minimumTitleLength {
                errors.append(("title", "제목(title)은 \(minimumTitleLength)자 이상이어야 합니다."))
            } else if length > maximumTitleLength {
                errors.append(("title", "제목(title)은 \(maximumTitleLength)자를 넘을 수 없습니다."))
            } else {
                return title
            }
        }
        return nil
    }

    /// JSON booleans, `"true"`/`"false"`/`"1"`/`"0"` (any case) and the numbers 1 and 0; absent means "not given".
    /// In a query string an empty `is_done=` is also "not given" (no filter); in a body, null or empty is refused.
    private static func validIsDone(_ value: FieldValue?, emptyMeansAbsent: Bool, errors: inout [FieldError]) -> Bool? {
        switch value {
        case nil:
            return nil
        case .null where emptyMeansAbsent:
            return nil
        case .bool(let bool):
            return bool
        // Laravel's boolean rule compares strictly: the integers 1 and 0, not 1.0.
        case .number("1"):
            return true
        case .number("0"), .number("-0"):
            return false
        case .text(let text):
            switch text.trimmingWhitespace.lowercased() {
            case "" where emptyMeansAbsent: return nil
            case "true", "1": return true
            case "false", "0": return false
            default: break
            }
        case .null, .number, .structured, .invalidText:
            break
        }
        errors.append(("is_done", "완료 여부(is_done)는 true, false, 1, 0 중 하나여야 합니다."))
        return nil
    }

    private static func integer(_ value: FieldValue?, field: String, label: String, errors: inout [FieldError]) -> Int? {
        guard let text = nonEmptyText(value) else { return nil }
        if let number = Int(text.trimmingWhitespace) { return number }
        errors.append((field, "\(label)는 정수여야 합니다."))
        return nil
    }

    private static func nonEmptyText(_ value: FieldValue?) -> String? {
        guard let value else { return nil }
        if case .invalidText = value { return "\u{FFFD}" }
        guard let text = value.asText, !text.isEmpty else { return nil }
        return text
    }
}
