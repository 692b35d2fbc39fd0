import Foundation
import NIOCore

/// Reads the text fields of a buffered `multipart/form-data` body (RFC 7578). File parts (those with a `filename`)
/// are noted as `.structured`, since a text field was expected where they stand.
///
/// Written here rather than with MultipartKit 4.7.1, whose parser traps (index out of range in its header-name
/// table) on any header-name byte above 0x7F: one request could stop the server. Delimiters are found in time linear in
/// the body whatever it holds; a body ends only with its closing delimiter.
enum MultipartForm {
    enum Failure: Error {
        case malformed
        case tooManyFields
    }

    /// Header lines one part may have; real forms send one or two.
    static let maximumHeadersPerPart = 16

    static func parse(_ body: ByteBuffer, boundary: String, maximumFields: Int = FormFields.maximumCount) throws(Failure) -> FormFields {
        // The boundary ends lines and is matched within them: line breaks in it cannot be right.
        guard !boundary.isEmpty, !boundary.utf8.contains(0x0D), !boundary.utf8.contains(0x0A) else { throw .malformed }
        let bytes = Array(body.readableBytesView)
        let result: Result<FormFields, Failure> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(Failure) in
                let reader = MultipartReader(bytes: buffer, boundary: Array("--\(boundary)".utf8), maximumFields: maximumFields)
                return try reader.fields()
            }
        }
        return try result.get()
    }
}

private struct MultipartReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// `--boundary`, as it starts every delimiter line.
    let delimiter: [UInt8]
    let maximumFields: Int

    init(bytes: UnsafeBufferPointer<UInt8>, boundary delimiter: [UInt8], maximumFields: Int) {
        self.bytes = bytes
        self.delimiter = delimiter
        self.maximumFields = maximumFields
    }

    func fields() throws(MultipartForm.Failure) -> FormFields {
        var fields = FormFields()
        // The first delimiter starts the body, or a line after a preamble.
        var position: Int
        if starts(with: delimiter, at: 0) {
            position = delimiter.count
        } else if let found = find([0x0D, 0x0A] + delimiter, from: 0) {
            position = found + 2 + delimiter.count
        } else {
            throw .malformed
        }
        var parts = 0
        while true {
            // After a delimiter: `--` closes the body (an epilogue may follow), or white space and CRLF open a part.
            if starts(with: [0x2D, 0x2D], at: position) { return fields }
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
            guard starts(with: [0x0D, 0x0A], at: position) else { throw .malformed }
            position += 2
            parts += 1
            guard parts <= maximumFields else { throw .tooManyFields }
            let headers = try readHeaders(at: &position)
            guard let end = find([0x0D, 0x0A] + delimiter, from: position) else { throw .malformed }
            let content = UnsafeBufferPointer(rebasing: bytes[position..<end])
            position = end + 2 + delimiter.count
            guard let disposition = headers["content-disposition"] else { continue }
            let parameters = HeaderParameters(disposition)
            guard let name = parameters["name"], !name.isEmpty else { continue }
            fields[name] = parameters["filename"] != nil ? .structured : .received(content)
        }
    }

    /// Header lines up to the empty line, names lowercased; a name must be an HTTP token.
    private func readHeaders(at position: inout Int) throws(MultipartForm.Failure) -> [String: String] {
        var headers: [String: String] = [:]
        for _ in 0...MultipartForm.maximumHeadersPerPart {
            guard let lineEnd = find([0x0D, 0x0A], from: position) else { throw .malformed }
            let line = UnsafeBufferPointer(rebasing: bytes[position..<lineEnd])
            position = lineEnd + 2
            if line.isEmpty { return headers }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
                  line[..<colon].allSatisfy(isHTTPTokenCharacter)
            else { throw .malformed }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            // Browsers send file names as raw UTF-8; anything else is read leniently, as PHP does.
            headers[name] = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingWhitespace
        }
        throw .malformed
    }


    private func starts(with prefix: [UInt8], at position: Int) -> Bool {
        position + prefix.count <= bytes.count && prefix.indices.allSatisfy { bytes[position + $0] == prefix[$0] }
    }

    /// The first position at or after `start` where `needle` begins. Every needle here starts with CR and holds no
    /// other CR (a boundary with CR or LF is refused), so the candidate comparisons never overlap: linear time.
    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        var candidate = start
        while candidate < bytes.count {
            guard let cr = UnsafeBufferPointer(rebasing: bytes[candidate...]).firstIndex(of: 0x0D) else { return nil }
            let position = candidate + cr
            if starts(with: needle, at: position) { return position }
            candidate = position + 1
        }
        return nil
    }
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
