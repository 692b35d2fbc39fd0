import Foundation
import NIOCore

/// A parsed JSON document for assertions: keeps booleans, numbers, strings and nulls apart.
enum JSON: Equatable, Decodable, CustomStringConvertible {
    case object([String: JSON])
    case array([JSON])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    init(parsing data: Data) throws {
        self = try JSONDecoder().decode(JSON.self, from: data)
    }

    init(parsing buffer: ByteBuffer) throws {
        try self.init(parsing: Data(buffer.readableBytesView))
    }

    subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    subscript(index: Int) -> JSON? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    var keys: Set<String>? {
        if case .object(let object) = self { return Set(object.keys) }
        return nil
    }

    var object: [String: JSON]? {
        if case .object(let object) = self { return object }
        return nil
    }

    var array: [JSON]? {
        if case .array(let array) = self { return array }
        return nil
    }

    var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    var int: Int? {
        if case .number(let number) = self, number.rounded() == number { return Int(number) }
        return nil
    }

    var number: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    var bool: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The document with every value replaced by its JSON type, and arrays by their first element's shape:
    /// what a client decoder depends on.
    var shape: JSON {
        switch self {
        case .object(let object): .object(object.mapValues(\.shape))
        case .array(let array): .array(array.first.map { [$0.shape] } ?? [])
        case .string: .string("string")
        case .number(let number): .string(number.rounded() == number ? "integer" : "number")
        case .bool: .string("boolean")
        case .null: .null
        }
    }

    var description: String {
        switch self {
        case .object(let object): "{" + object.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        case .array(let array): "[" + array.map(\.description).joined(separator: ", ") + "]"
        case .string(let string): "\"\(string)\""
        case .number(let number): "\(number)"
        case .bool(let bool): "\(bool)"
        case .null: "null"
        }
    }
}

extension JSON: Encodable {
    /// Writes the document back out, so a parsed answer can be handed to an app's own `Decodable` types.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let object): try container.encode(object)
        case .array(let array): try container.encode(array)
        case .string(let string): try container.encode(string)
        case .number(let number): try container.encode(number)
        case .bool(let bool): try container.encode(bool)
        case .null: try container.encodeNil()
        }
    }
}
