import Foundation
import MultipartKit
import NIOCore

/// Reads the text fields of a `multipart/form-data` body. File parts (those with a `filename`) are noted as
/// `.structured`, since a text field was expected where they stand.
enum MultipartForm {
    enum Failure: Error {
        case malformed
        case tooManyFields
    }

    /// The parser is fed this much at a time, so a body of thousands of tiny parts is refused early.
    private static let chunkSize = 16 * 1024

    static func parse(_ body: ByteBuffer, boundary: String, maximumFields: Int = FormFields.maximumCount) throws(Failure) -> FormFields {
        let parser = MultipartParser(boundary: boundary)
        var fields = FormFields()
        var headers: [(String, String)] = []
        var partBody: [UInt8] = []
        var completedParts = 0
        parser.onHeader = { name, value in headers.append((name, value)) }
        parser.onBody = { buffer in partBody.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            defer {
                headers = []
                partBody = []
                completedParts += 1
            }
            guard let disposition = headers.first(where: { $0.0.lowercased() == "content-disposition" })?.1 else { return }
            let parameters = HeaderParameters(disposition)
            guard let name = parameters["name"], !name.isEmpty else { return }
            if parameters["filename"] != nil {
                fields[name] = .structured
            } else {
                fields[name] = .received(partBody)
            }
        }
        // A form with no parts is only its closing delimiter, which the parser does not accept on its own.
        if isOnlyTheClosingDelimiter(body, boundary: boundary) {
            return fields
        }
        var remaining = body
        while let chunk = remaining.readSlice(length: min(chunkSize, remaining.readableBytes)), chunk.readableBytes > 0 {
            do {
                try parser.execute(chunk)
            } catch {
                throw .malformed
            }
            guard completedParts <= maximumFields else { throw .tooManyFields }
        }
        // A body that never reached a boundary is not multipart at all.
        if completedParts == 0 && body.readableBytes > 0 { throw .malformed }
        // The parser accepts a body that simply stops, dropping its unfinished last part: a form is complete
        // only with its closing delimiter.
        guard hasClosingDelimiter(body, boundary: boundary) else { throw .malformed }
        return fields
    }

    /// Whether `body` is `--boundary--` and nothing else but white space around it.
    private static func isOnlyTheClosingDelimiter(_ body: ByteBuffer, boundary: String) -> Bool {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let bytes = body.readableBytesView
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return false
        }
        return bytes[first...last].elementsEqual("--\(boundary)--".utf8)
    }

    /// Whether `body` contains `--boundary--` at the start of a line: the end of a multipart body.
    private static func hasClosingDelimiter(_ body: ByteBuffer, boundary: String) -> Bool {
        let bytes = Data(body.readableBytesView)
        let closing = Data("--\(boundary)--".utf8)
        return bytes.starts(with: closing) || bytes.range(of: Data("\r\n".utf8) + closing) != nil
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
