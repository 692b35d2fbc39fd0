/// Reads a JSON object body into `FormFields`, keeping each value's JSON type so validation can tell
/// `true` from `"true"` and a number from a string.
///
/// One pass over the bytes, in time linear in the body's size whatever its shape. (Decoding each value through
/// a chain of `try? decode(…)` attempts, as this once did, cost cubic time in the nesting depth: a 1 KB body of
/// nested arrays took seconds of CPU.) Nested arrays and objects are checked for well-formedness but only noted
/// as `.structured`; like PHP's `json_decode`, nesting deeper than `maximumDepth` is refused. A key given twice
/// keeps its last value, as PHP does and as forms and queries do here.
///
/// Longer than 300 lines on purpose: one scanner whose value, string, number and nesting steps share its state,
/// and read best together.
enum JSONFields {
    enum Failure: Error, Equatable {
        case malformed
        case notAnObject
        case tooManyFields
    }

    /// PHP's `json_decode` default depth, counting the top-level object as one.
    static let maximumDepth = 512

    /// Reads a body's top-level object; more than `maximumFields` members (repeated keys counted) is
    /// `.tooManyFields`, found before the rest of the body is read.
    static func parse(_ bytes: some Collection<UInt8>, maximumFields: Int = FormFields.maximumCount) throws(Failure) -> FormFields {
        let copy = Array(bytes)
        let result: Result<FormFields, Failure> = copy.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer, maximumFields: maximumFields)
            return Result { () throws(Failure) in try scanner.topLevelObject() }
        }
        return try result.get()
    }
}

/// A cursor over one JSON text. Every byte is looked at a bounded number of times, and nothing is allocated for
/// what is only checked (nested values, their keys and strings).
private struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumFields: Int
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumFields: Int) {
        self.bytes = bytes
        self.maximumFields = maximumFields
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func topLevelObject() throws(JSONFields.Failure) -> FormFields {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else {
            // Tell "valid JSON, but not an object" from "not JSON at all".
            guard current != nil, (try? skipValue(depth: 0)) != nil else { throw .malformed }
            skipWhitespace()
            throw current == nil ? .notAnObject : .malformed
        }
        index += 1
        var fields = FormFields()
        var members = 0
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                members += 1
                guard members <= maximumFields else { throw .tooManyFields }
                skipWhitespace()
                let key = try stringValue()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                fields[key] = try fieldValue()
                skipWhitespace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"))
                break
            }
        }
        skipWhitespace()
        guard current == nil else { throw .malformed }
        return fields
    }

    /// A member's value as a form field: scalars kept, containers checked and noted as `.structured`.
    private mutating func fieldValue() throws(JSONFields.Failure) -> FieldValue {
        switch current {
        case UInt8(ascii: "\""):
            return .received(try stringValue())
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipValue(depth: 1)
            return .structured
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            return .number(try number())
        }
    }

    /// Skips one value of any kind without recursion, so deep nesting costs no stack. `depth` is how many
    /// containers already enclose it.
    private mutating func skipValue(depth: Int) throws(JSONFields.Failure) {
        // The open containers, innermost last: true for an object, false for an array.
        var open: [Bool] = []
        while true {
            skipWhitespace()
            switch current {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = current == UInt8(ascii: "{")
                index += 1
                guard depth + open.count < JSONFields.maximumDepth else { throw .malformed }
                open.append(isObject)
                skipWhitespace()
                if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    open.removeLast()
                } else {
                    if isObject { try memberName() }
                    continue
                }
            case UInt8(ascii: "\""):
                try skipString()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: _ = try number()
            }
            // After a value: close finished containers, or move on to the next element.
            while let isObject = open.last {
                skipWhitespace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    if isObject { try memberName() }
                    break
                }
                try expect(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                open.removeLast()
            }
            if open.isEmpty { return }
        }
    }

    /// `"name":` inside a nested object; the name itself is not kept.
    private mutating func memberName() throws(JSONFields.Failure) {
        skipWhitespace()
        try skipString()
        try expect(UInt8(ascii: ":"))
    }

    /// Checks a string that is not kept: escapes well-formed, text valid UTF-8, nothing allocated.
    private mutating func skipString() throws(JSONFields.Failure) {
        guard current == UInt8(ascii: "\"") else { throw .malformed }
        index += 1
        var runStart = index
        var runIsASCII = true
        while true {
            guard let byte = current else { throw .malformed }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                // Escapes split the text into runs; each run must be valid UTF-8 on its own.
                if !runIsASCII { try validateUTF8(runStart..<index) }
                index += 1
                if byte == UInt8(ascii: "\"") { return }
                _ = try escapedScalar()
                runStart = index
                runIsASCII = true
            case ..<0x20:
                throw .malformed
            default:
                if byte >= 0x80 { runIsASCII = false }
                index += 1
            }
        }
    }

    private func validateUTF8(_ range: Range<Int>) throws(JSONFields.Failure) {
        let failed = transcode(
            UnsafeBufferPointer(rebasing: bytes[range]).makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true
        ) { _ in }
        if failed { throw .malformed }
    }

    /// A JSON string, unescaped. Invalid UTF-8, raw control characters and unpaired surrogates are refused as
    /// malformed, as PHP refuses them; an escaped NUL is kept (validation refuses it later, by field).
    private mutating func stringValue() throws(JSONFields.Failure) -> String {
        guard current == UInt8(ascii: "\"") else { throw .malformed }
        index += 1
        let start = index
        // Fast path: no escapes, so the text is a slice of the input.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw .malformed }
            index += 1
        }
        guard let stop = current else { throw .malformed }
        if stop == UInt8(ascii: "\"") {
            index += 1
            guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self) else {
                throw .malformed
            }
            return text
        }
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let byte = current else { throw .malformed }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: decoded, as: UTF8.self) else { throw .malformed }
                return text
            case UInt8(ascii: "\\"):
                decoded.append(contentsOf: UTF8.encode(try escapedScalar())!)
            case ..<0x20:
                throw .malformed
            default:
                decoded.append(byte)
            }
        }
    }

    /// The character an escape stands for; `index` is just past its backslash.
    private mutating func escapedScalar() throws(JSONFields.Failure) -> Unicode.Scalar {
        guard let byte = current else { throw .malformed }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            var scalar = try hexQuad()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { throw .malformed }
                index += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else { throw .malformed }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw .malformed
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .malformed }
            return unicode
        default:
            throw .malformed
        }
    }

    private mutating func hexQuad() throws(JSONFields.Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .malformed }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .malformed
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number, returned as the text that was sent: converting it would lose digits of long numbers.
    private mutating func number() throws(JSONFields.Failure) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw .malformed }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw .malformed }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw .malformed }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) throws(JSONFields.Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw .malformed }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw .malformed
        }
        index += count
    }

    private mutating func expect(_ byte: UInt8) throws(JSONFields.Failure) {
        skipWhitespace()
        guard current == byte else { throw .malformed }
        index += 1
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }
}
