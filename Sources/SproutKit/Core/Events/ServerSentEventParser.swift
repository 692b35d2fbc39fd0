import Foundation

/// Reads a `text/event-stream` as it arrives, in chunks cut anywhere (mid-line, mid-character, between a CR and
/// its LF), by the rules of the HTML standard's event-stream interpretation: lines end in CRLF, LF or CR; a
/// leading BOM is dropped; lines starting with `:` are comments; `data` lines are joined by `"\n"`; a blank line
/// dispatches the frame, unless it has no data; an `id` containing NUL is ignored; `retry` takes digits only.
public struct ServerSentEventParser: Sendable {
    /// What one chunk produced, in order.
    public enum Output: Sendable, Equatable {
        /// A frame was dispatched.
        case event(ServerSentEvent)
        /// The server asked for this reconnection delay (`retry:`).
        case retry(Duration)
    }

    /// The last `id` seen; it survives frames (and, kept by the caller, connections).
    public private(set) var lastEventID: String?
    private var line: [UInt8] = []
    private var data: [String] = []
    private var hasData = false
    private var eventName = ""
    /// Whether the first line has ended (only it may start with a BOM).
    private var bomChecked = false
    /// Whether the last byte was a CR: an LF right after it ends no second line.
    private var afterCR = false

    /// A parser at the start of a stream; `lastEventID` is the id the previous connection ended with.
    public init(lastEventID: String? = nil) {
        self.lastEventID = lastEventID
    }

    /// Feeds the next bytes; answers what they completed.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [Output] {
        var outputs: [Output] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCR = true
                endLine(into: &outputs)
            case 0x0A:
                endLine(into: &outputs)
            default:
                line.append(byte)
            }
        }
        return outputs
    }

    private mutating func endLine(into outputs: inout [Output]) {
        defer { line.removeAll(keepingCapacity: true) }
        dropBOM()
        if line.isEmpty {
            dispatch(into: &outputs)
            return
        }
        if line.first == UInt8(ascii: ":") { return }
        let field: [UInt8]
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = Array(line[..<colon])
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line
            value = []
        }
        let text = String(decoding: value, as: UTF8.self)
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventName = text
        case "data":
            data.append(text)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = text }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int(text) {
                outputs.append(.retry(.milliseconds(milliseconds)))
            }
        default:
            break
        }
    }

    /// Only the stream's first line can start with a BOM (EF BB BF).
    private mutating func dropBOM() {
        guard !bomChecked else { return }
        bomChecked = true
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
    }

    private mutating func dispatch(into outputs: inout [Output]) {
        defer {
            data = []
            hasData = false
            eventName = ""
        }
        guard hasData else { return }
        outputs.append(.event(ServerSentEvent(event: eventName.isEmpty ? "message" : eventName, data: data.joined(separator: "\n"), lastEventID: lastEventID)))
    }
}
