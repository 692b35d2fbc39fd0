/// Parses `application/x-www-form-urlencoded` text (bodies and query strings) the way PHP does:
/// `+` is a space, percent escapes are bytes, the last of repeated keys wins, `key[]` keeps its brackets.
enum URLEncodedForm {
    static func parse(_ bytes: some Collection<UInt8>) -> FormFields {
        var fields = FormFields()
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
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
