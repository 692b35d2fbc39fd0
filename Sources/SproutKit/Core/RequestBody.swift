import Foundation

/// What a request sends: JSON, a urlencoded form or a multipart form.
public enum RequestBody: Sendable {
    /// Already-encoded JSON.
    case json(Data)
    /// `application/x-www-form-urlencoded` fields, in order.
    case form([(String, String)])
    /// `multipart/form-data` parts.
    case multipart(MultipartFormData)

    /// A value encoded as JSON (with a default `JSONEncoder`) when the request is sent.
    case encodable(any Encodable & Sendable)

    /// The bytes to send and the `Content-Type` that describes them.
    func encoded() throws -> (data: Data, contentType: String) {
        switch self {
        case .json(let data):
            return (data, "application/json")
        case .encodable(let value):
            return (try JSONEncoder().encode(value), "application/json")
        case .form(let fields):
            let text = fields.map { "\(FormEncoding.escape($0.0))=\(FormEncoding.escape($0.1))" }.joined(separator: "&")
            return (Data(text.utf8), "application/x-www-form-urlencoded")
        case .multipart(let form):
            return (form.encoded(), "multipart/form-data; boundary=\(form.boundary)")
        }
    }
}

/// Percent-encoding for query strings and form bodies that every server reads the same way: only unreserved
/// characters stay as they are, so `+` (a space to PHP) and `&` in Korean or English text survive the trip.
enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

/// A `multipart/form-data` body: text fields and files.
public struct MultipartFormData: Sendable {
    /// One part of the form.
    public struct Part: Sendable {
        /// The form field name.
        public var name: String
        /// Set for files; the server sees it in `Content-Disposition`.
        public var filename: String?
        /// The part's own `Content-Type` (for files, such as `image/jpeg`).
        public var contentType: String?
        /// The part's bytes.
        public var data: Data

        /// A part; give `filename` and `contentType` for a file.
        public init(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.data = data
        }
    }

    /// The parts, in the order they are sent.
    public var parts: [Part]
    /// The separator between parts (random unless given).
    public let boundary: String

    /// A form with `parts`.
    public init(parts: [Part] = [], boundary: String = "SproutKit-\(UUID().uuidString)") {
        self.parts = parts
        self.boundary = boundary
    }

    /// Adds a text field.
    public mutating func append(_ value: String, named name: String) {
        parts.append(Part(name: name, data: Data(value.utf8)))
    }

    /// Adds a file.
    public mutating func append(_ data: Data, named name: String, filename: String, contentType: String) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, data: data))
    }

    func encoded() -> Data {
        var body = Data()
        for part in parts {
            var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { header += "; filename=\"\(Self.quoted(filename))\"" }
            header += "\r\n"
            if let contentType = part.contentType { header += "Content-Type: \(contentType)\r\n" }
            header += "\r\n"
            body.append(Data(header.utf8))
            body.append(part.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}
