import Foundation
import NIOCore

/// Reads the text fields of a buffered `multipart/form-data` body (RFC 7578). File parts (those with a `filename`)
/// are noted as `.structured`, since a text field was expected where they stand.
///
/// The body is read by `MultipartStream`, the parser the Market's uploads stream through, handed the whole body as
/// one chunk: one reader of the format, so a fix to it (delimiters, headers, limits) holds for both.
/// (Written here rather than with MultipartKit 4.7.1, whose parser traps — index out of range in its header-name
/// table — on any header-name byte above 0x7F: one request could stop the server.)
enum MultipartForm {
    enum Failure: Error {
        case malformed
        case tooManyFields
    }

    static func parse(_ body: ByteBuffer, boundary: String, maximumFields: Int = FormFields.maximumCount) async throws(Failure) -> FormFields {
        guard var parts = MultipartStream(WholeBody(body: body), boundary: boundary, maximumParts: maximumFields) else { throw .malformed }
        var fields = FormFields()
        do {
            // No part can be longer than the body itself.
            while let part = try await parts.next(partLimit: { _ in body.readableBytes }) {
                guard let name = part.name, !name.isEmpty else { continue }
                fields[name] = part.filename != nil ? .structured : .received(part.content.readableBytesView)
            }
        } catch MultipartStream<WholeBody>.Failure.tooManyParts {
            throw .tooManyFields
        } catch {
            throw .malformed
        }
        return fields
    }
}

/// A body already in memory, as the one chunk of an `AsyncSequence`.
struct WholeBody: AsyncSequence, AsyncIteratorProtocol {
    typealias Element = ByteBuffer
    private var body: ByteBuffer?

    init(body: ByteBuffer) {
        self.body = body
    }

    mutating func next() async -> ByteBuffer? {
        defer { body = nil }
        return body
    }

    func makeAsyncIterator() -> WholeBody { self }
}

/// The `key=value` parameters of a header such as `Content-Type` or `Content-Disposition`.
struct HeaderParameters {
    /// The part before the first `;`, lowercased (`multipart/form-data`, `form-data`).
    let value: String
    private let parameters: [String: String]

    init(_ header: String) {
        var pieces = Self.splitOutsideQuotes(header)
        value = pieces.isEmpty ? "" : pieces.removeFirst().trimmingWhitespace.lowercased()
        var parameters: [String: String] = [:]
        for piece in pieces {
            let pair = piece.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhitespace }
            guard pair.count == 2 else { continue }
            var parameterValue = pair[1]
            if parameterValue.count >= 2, parameterValue.hasPrefix("\""), parameterValue.hasSuffix("\"") {
                parameterValue = String(parameterValue.dropFirst().dropLast())
                    .replacingOccurrences(of: "\\\"", with: "\"")
            }
            parameters[pair[0].lowercased()] = parameterValue
        }
        self.parameters = parameters
    }

    subscript(name: String) -> String? { parameters[name] }

    private static func splitOutsideQuotes(_ header: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        var inQuotes = false
        var previous: Character = " "
        for character in header {
            if character == "\"" && previous != "\\" { inQuotes.toggle() }
            if character == ";" && !inQuotes {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        pieces.append(current)
        return pieces
    }
}

/// RFC 9110 `tchar`: what a header name may hold.
func isHTTPTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        return true
    default:
        return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}
