import Foundation
import Hummingbird
import NIOCore
import SproutWire

/// A value that writes its own JSON: the one way Sprout writes JSON by hand. Two kinds of answer do:
/// - the hottest, whose SproutWire `Codable` type is also what the shared `JSONEncoder` would write (todos,
///   Strapi's posts, comments and users): `JSONEncoder` was about 70% of a todo show's handler time under wrk
///   (perf), most of it in building and sorting its intermediate tree. `JSONWriterTests` keeps the two writers'
///   bytes equal, so the `Codable` type stays the shape's one description (a feed's posts and comments are
///   written from their rows without building that value: `PostAnswer`);
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
///
/// The text goes into an array and is copied into a `ByteBuffer` once at the end: every `ByteBuffer` write checks
/// its storage's uniqueness and exclusive access, which was 10 % of a feed page's CPU (perf; a page is some 1,500
/// writes), where a copy of its 35 KB costs a few microseconds.
struct JSONWriter {
    private var bytes: [UInt8]

    init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// What has been written.
    var buffer: ByteBuffer {
        ByteBuffer(bytes: bytes)
    }

    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// JSON written elsewhere (a row already in its list's shape), as it is.
    mutating func rawJSON(_ json: ByteBuffer) {
        json.withUnsafeReadableBytes { bytes.append(contentsOf: $0) }
    }

    mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        appendWritten(count: digits) { out in
            for index in stride(from: digits - 1, through: 0, by: -1) {
                out[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
        }
    }

    /// A JSON number that always reads as a double: `1200.0`, `2.36` (Swift's shortest round-trip text).
    mutating func double(_ value: Double) {
        text(value.isFinite ? value.description : "0.0")
    }

    /// A number as JSONEncoder writes a `Double`: Swift's shortest text without a trailing `.0` (`21`, `21.5`).
    mutating func encoderNumber(_ value: Double) {
        let text = value.description
        self.text(text.hasSuffix(".0") ? String(text.dropLast(2)) : text)
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

    /// A date as a JSON string, as `UTCTimestamp.string(from:fractionDigits:)` spells it, written in place.
    mutating func timestamp(_ date: Date, fractionDigits: Int) {
        bytes.append(UInt8(ascii: "\""))
        appendWritten(count: UTCTimestamp.length(fractionDigits: fractionDigits)) { out in
            UTCTimestamp.write(date, fractionDigits: fractionDigits, into: out)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON string: `"` and `\` escaped, control characters as JSONEncoder writes them, the rest as UTF-8.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
                return
            }
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
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                default:
                    bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Text that needs no escaping (a number's), as it is.
    private mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends `count` bytes (at most 32) that `write` fills in, written on the stack first: appending them as
    /// placeholders to fill in place went through a generic path that cost more than the writing.
    private mutating func appendWritten(count: Int, _ write: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { scratch in
            let written = UnsafeMutableBufferPointer(rebasing: scratch[..<count])
            write(written)
            bytes.append(contentsOf: UnsafeBufferPointer(written))
        }
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
