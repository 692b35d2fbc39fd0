import SproutWire

/// Reads the board's query parameters and post bodies; anything wrong is a 400 that names it.
enum BoardInput {
    static let maximumTitleLength = 200
    static let maximumContentsLength = 20_000
    static let maximumSearchLength = 200
    static let maximumLimit = 100

    struct PostInput: Sendable, Equatable {
        let title: String
        let contents: String
        let parentPostID: Int?
    }

    static func postQuery(_ fields: FormFields) throws(BoardError) -> BoardPostQuery {
        var query = BoardPostQuery()
        if let offset = try number(fields, "offset") {
            guard offset >= 0 else { throw .badRequest("offset must be 0 or more.") }
            query.offset = offset
        }
        if let limit = try number(fields, "limit") {
            guard limit >= 0 else { throw .badRequest("limit must be 0 or more.") }
            query.limit = min(maximumLimit, max(1, limit))
        }
        if let raw = fields["searchTarget"] {
            guard let text = raw.asText, let target = BoardSearchTarget(rawValue: text) else {
                throw .badRequest("searchTarget must be all, title, contents or writer.")
            }
            query.target = target
        }
        if let raw = fields["pinned"] {
            switch raw.asText {
            case "true": query.pinnedOnly = true
            case "false": query.pinnedOnly = false
            default: throw .badRequest("pinned must be true or false.")
            }
        }
        switch fields["search"] {
        case nil, .null: break
        case .text(let text):
            let trimmed = text.trimmingWhitespace
            guard trimmed.count <= maximumSearchLength else { throw .badRequest("search may be at most \(maximumSearchLength) characters long.") }
            query.search = trimmed.isEmpty ? nil : trimmed
        default: throw .badRequest("search must be text.")
        }
        if query.pinnedOnly && query.search != nil { throw .badRequest("pinned=true lists the pinned posts; it does not search.") }
        return query
    }

    static func post(_ fields: FormFields, allowingParent: Bool) throws(BoardError) -> PostInput {
        let title = try text(fields, "title", maximum: maximumTitleLength)
        let contents = try text(fields, "contents", maximum: maximumContentsLength)
        var parent: Int?
        if allowingParent, let raw = fields["parentPostId"], raw != .null {
            guard let text = raw.asText, let id = Int(text), id > 0 else { throw .badRequest("parentPostId must be a post id.") }
            parent = id
        }
        return PostInput(title: title, contents: contents, parentPostID: parent)
    }

    private static func text(_ fields: FormFields, _ name: String, maximum: Int) throws(BoardError) -> String {
        guard case .text(let value) = fields[name] else {
            throw fields[name] == .invalidText ? .badRequest("\(name) must be UTF-8 text without NUL characters.") : .badRequest("\(name) is required.")
        }
        let trimmed = value.trimmingWhitespace
        guard !trimmed.isEmpty else { throw .badRequest("\(name) is required.") }
        guard trimmed.count <= maximum else { throw .badRequest("\(name) may be at most \(maximum) characters long.") }
        return trimmed
    }

    private static func number(_ fields: FormFields, _ name: String) throws(BoardError) -> Int? {
        guard let value = fields[name] else { return nil }
        guard let text = value.asText?.trimmingWhitespace, let number = Int(text) else {
            throw .badRequest("\(name) must be a whole number.")
        }
        return number
    }
}
