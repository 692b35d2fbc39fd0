import Foundation

/// Reads a JSON object body into `FormFields`, keeping each value's JSON type so validation can tell
/// `true` from `"true"` and a number from a string.
enum JSONFields {
    enum Failure: Error {
        case malformed
        case notAnObject
    }

    static func parse(_ data: Data) throws(Failure) -> FormFields {
        let decoder = JSONDecoder()
        do {
            let object = try decoder.decode([String: JSONScalar].self, from: data)
            return FormFields(object.mapValues(\.field))
        } catch {
            if (try? decoder.decode(JSONScalar.self, from: data)) != nil { throw .notAnObject }
            throw .malformed
        }
    }
}

/// A JSON value reduced to what a form field can be; arrays and objects are only noted as such.
private struct JSONScalar: Decodable {
    let field: FieldValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            field = .null
        } else if let bool = try? container.decode(Bool.self) {
            field = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            field = .number(number)
        } else if let string = try? container.decode(String.self) {
            field = .received(string)
        } else if (try? container.decode([String: JSONScalar].self)) != nil || (try? container.decode([JSONScalar].self)) != nil {
            field = .structured
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }
}
