/// One value of a request field, whatever encoding it arrived in (query, urlencoded, multipart or JSON).
public enum FieldValue: Sendable, Equatable {
    case text(String)
    case bool(Bool)
    /// A JSON number, as the text that was sent (`12345678901234567` keeps every digit).
    case number(String)
    case null
    /// A JSON array or object, where a scalar was expected.
    case structured
    /// Bytes that are not valid UTF-8 text, or text with NUL characters (which PostgreSQL cannot store).
    case invalidText

    /// A received string: `.text`, unless it holds a NUL character.
    static func received(_ string: String) -> FieldValue {
        string.utf8.contains(0) ? .invalidText : .text(string)
    }

    /// Received bytes: `.text` when they are UTF-8 without NUL characters.
    static func received(_ bytes: some Collection<UInt8>) -> FieldValue {
        String(validating: bytes, as: UTF8.self).map(received) ?? .invalidText
    }

    /// Text, or a JSON scalar spelled as text (PHP frameworks see `123` and `"123"` alike).
    var asText: String? {
        switch self {
        case .text(let string): string
        case .number(let literal): literal
        case .bool, .null, .structured, .invalidText: nil
        }
    }
}

/// The named fields of a request body or query string. Later duplicates win, as in PHP.
public struct FormFields: Sendable, Equatable {
    /// The most fields a request body may have, repeated names counted: PHP's `max_input_vars` default. It
    /// keeps a body of 80,000 one-letter keys from costing tens of milliseconds to read; no app sends more.
    public static let maximumCount = 1000

    public private(set) var values: [String: FieldValue]

    public init(_ values: [String: FieldValue] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> FieldValue? {
        get { values[name] }
        set { values[name] = newValue }
    }
}
