import Hummingbird
import NIOCore

/// A value that writes its own JSON: the one way Sprout writes JSON by hand. Two kinds of answer do:
/// - the hottest, whose SproutWire `Codable` type is also what the shared `JSONEncoder` would write (todos,
///   Strapi's posts, comments and users): `JSONEncoder` was about 70% of a todo show's handler time under wrk
///   (perf), most of it in building and sorting its intermediate tree. `JSONWriterTests` keeps the two writers'
///   bytes equal, so the `Codable` type stays the shape's one description;
/// - answers whose contract `JSONEncoder` cannot write (the Market's key order and `1200.0` prices), written as a
///   `WrittenJSON`; the SproutWire types decode them (`MarketContractTests`).
protocol JSONWritable {
    func writeJSON(into writer: inout JSONWriter)
}

/// JSON written by a closure, for answers whose key order is the original server's rather than sorted.
struct WrittenJSON: JSONWritable {
    let write: (inout JSONWriter) -> Void

    func writeJSON(into writer: inout JSONWriter) {
        write(&writer)
    }
}

/// Appends JSON text to a buffer. Callers write object keys in sorted order themselves.
struct JSONWriter {
    private(set) var buffer: ByteBuffer

    init(capacity: Int = 1024) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    mutating func raw(_ text: StaticString) {
        buffer.writeStaticString(text)
    }

    /// JSON written elsewhere (a row already in its list's shape), as it is.
    mutating func rawJSON(_ json: ByteBuffer) {
        var json = json
        buffer.writeBuffer(&json)
    }

    mutating func int(_ value: Int) {
        buffer.writeString(String(value))
    }

    /// A JSON number that always reads as a double: `1200.0`, `2.36` (Swift's shortest round-trip text).
    mutating func double(_ value: Double) {
        buffer.writeString(value.isFinite ? value.description : "0.0")
    }

    /// A number as JSONEncoder writes a `Double`: Swift's shortest text without a trailing `.0` (`21`, `21.5`).
    mutating func encoderNumber(_ value: Double) {
        let text = value.description
        buffer.writeString(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    mutating func optionalInt(_ value: Int?) {
        if let value { int(value) } else { raw("null") }
    }

    mutating func optionalBool(_ value: Bool?) {
        if let value { bool(value) } else { raw("null") }
    }

    /// A JSON string: `"` and `\` escaped, control characters as JSONEncoder writes them, the rest as UTF-8.
    mutating func string(_ value: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        let utf8 = value.utf8
        let plain = utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain == true {
            buffer.writeString(value)
        } else {
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x08: raw("\\b")
                case 0x0C: raw("\\f")
                case 0x0A: raw("\\n")
                case 0x0D: raw("\\r")
                case 0x09: raw("\\t")
                case ..<0x20:
                    raw("\\u00")
                    buffer.writeInteger(Self.hexDigits[Int(byte >> 4)])
                    buffer.writeInteger(Self.hexDigits[Int(byte & 0x0F)])
                default:
                    buffer.writeInteger(byte)
                }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

extension Response {
    /// A JSON response written by the value itself (see `JSONWritable`), with the headers of every JSON answer.
    static func json(_ value: some JSONWritable, status: HTTPResponse.Status = .ok) throws -> Response {
        written(value, status: status)
    }

    /// A value that has both a `Codable` description and a hand writer is written by hand. (This overload only
    /// settles the choice between the two others; it writes no differently.)
    static func json(_ value: some Encodable & JSONWritable, status: HTTPResponse.Status = .ok) throws -> Response {
        written(value, status: status)
    }

    private static func written(_ value: some JSONWritable, status: HTTPResponse.Status) -> Response {
        var writer = JSONWriter()
        value.writeJSON(into: &writer)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: writer.buffer)
        )
    }
}
