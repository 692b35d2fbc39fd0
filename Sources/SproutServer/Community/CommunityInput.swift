/// The text of a post or comment: required (not only white space), and bounded, so one request cannot store
/// megabytes that every feed then carries. Stored as sent.
enum CommunityInput {
    static let maximumPostLength = 10_000
    static let maximumCommentLength = 2_000

    static func text(_ fields: FormFields, field: String, maximumLength: Int) throws(StrapiError) -> String {
        guard let value = fields[field] else { throw .badRequest("\(field) is required.") }
        guard let text = value.asText else { throw .badRequest("\(field) must be text.") }
        guard !text.trimmingWhitespace.isEmpty else { throw .badRequest("\(field) cannot be empty.") }
        guard text.count <= maximumLength else { throw .badRequest("\(field) can be at most \(maximumLength) characters long.") }
        return text
    }

    static func id(_ fields: FormFields, field: String) throws(StrapiError) -> Int {
        guard let value = fields[field] else { throw .badRequest("\(field) is required.") }
        guard let text = value.asText, let id = Int(text), id > 0 else { throw .badRequest("\(field) must be a post id.") }
        return id
    }
}
