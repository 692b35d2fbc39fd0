/// Parses `application/x-www-form-urlencoded` text (bodies and query strings) the way PHP does:
/// `+` is a space, percent escapes are bytes, the last of repeated keys wins, `key[]` keeps its brackets.
enum URLEncodedForm {
    struct TooManyFields: Error {}

    /// A body's fields; more than `FormFields.maximumCount` pairs is refused before the rest is decoded.
    static func parseBody(_ bytes: some Collection<UInt8>) throws(TooManyFields) -> FormFields {
        guard let fields = parse(bytes, maximumFields: FormFields.maximumCount) else { throw TooManyFields() }
        return fields
    }

    /// A query string's fields (its length is bounded by the server's header limits).
    static func parse(_ bytes: some Collection<UInt8>) -> FormFields {
        parse(bytes, maximumFields: .max) ?? FormFields()
    }

    private static func parse(_ bytes: some Collection<UInt8>, maximumFields: Int) -> FormFields? {
        var fields = FormFields()
        var count = 0
        // Pair by pair, not `split`: that would cut the whole body into pieces before the limit is looked at.
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let pair = bytes[start..<end]
            start = end == bytes.endIndex ? end : bytes.index(after: end)
            if pair.isEmpty { continue }
            count += 1
            guard count <= maximumFields else { return nil }
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let rawName = parts.first, let name = String(validating: decode(rawName), as: UTF8.self), !name.isEmpty else {
                continue
            }
            fields[name] = .received(parts.count > 1 ? decode(parts[1]) : [])
        }
        return fields
    }

    static func parse(_ string: String) -> FormFields {
        parse(Array(string.utf8))
    }

    private static func decode(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"),
                let high = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex), high != bytes.endIndex,
                let low = bytes.index(high, offsetBy: 1, limitedBy: bytes.endIndex), low != bytes.endIndex,
                let highValue = hexValue(bytes[high]), let lowValue = hexValue(bytes[low])
            {
                output.append(highValue << 4 | lowValue)
                index = low
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
