/// A Strapi v3 error body. Two shapes share it: the plain boom payload
/// `{"statusCode":403,"error":"Forbidden","message":"Forbidden"}`, and the users-permissions form error whose
/// `message` (and, from Strapi 3.1, `data`) is `[{"messages":[{"id":"Auth.form.error.invalid","message":"…"}]}]`.
public struct StrapiErrorJSON: Codable, Sendable, Equatable {
    /// The HTTP status code.
    public var statusCode: Int
    /// The HTTP reason phrase, e.g. `Bad Request`.
    public var error: String
    /// A plain message, or the nested form messages.
    public var message: StrapiErrorMessage
    /// The nested form messages again, as Strapi 3.1+ repeats them; nil in the plain shape.
    public var data: [StrapiFormMessages]?

    /// A plain boom error.
    public init(statusCode: Int, error: String, message: String) {
        self.statusCode = statusCode
        self.error = error
        self.message = .text(message)
        self.data = nil
    }

    /// A form error with one message, in both `message` and `data`, as Strapi 3.1+ sends it.
    public init(statusCode: Int, error: String, id: String, message: String) {
        let nested = [StrapiFormMessages(messages: [StrapiFormMessage(id: id, message: message)])]
        self.statusCode = statusCode
        self.error = error
        self.message = .form(nested)
        self.data = nested
    }

    /// The first form message's id (`Auth.form.error.invalid`), if this is a form error.
    public var formMessageID: String? {
        if case .form(let groups) = message { return groups.first?.messages.first?.id }
        return nil
    }

    /// The text a person should read: the plain message, or the first form message.
    public var readableMessage: String {
        switch message {
        case .text(let text): text
        case .form(let groups): groups.first?.messages.first?.message ?? error
        }
    }
}

/// `message` in a Strapi error: a string, or the nested array of the users-permissions plugin.
public enum StrapiErrorMessage: Codable, Sendable, Equatable {
    case text(String)
    case form([StrapiFormMessages])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .text(text)
        } else {
            self = .form(try container.decode([StrapiFormMessages].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .form(let groups): try container.encode(groups)
        }
    }
}

/// `{"messages": [...]}`.
public struct StrapiFormMessages: Codable, Sendable, Equatable {
    /// The messages of this group.
    public var messages: [StrapiFormMessage]

    /// A group of messages.
    public init(messages: [StrapiFormMessage]) {
        self.messages = messages
    }
}

/// `{"id": "Auth.form.error.invalid", "message": "Identifier or password invalid."}`.
public struct StrapiFormMessage: Codable, Sendable, Equatable {
    /// Strapi's translation id, which clients may match on.
    public var id: String
    /// The English text.
    public var message: String

    /// One message.
    public init(id: String, message: String) {
        self.id = id
        self.message = message
    }
}
