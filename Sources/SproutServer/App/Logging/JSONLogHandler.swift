import Foundation
import Logging

/// `LOG_FORMAT=json`: one JSON object a line on standard error, for a log collector. The keys are `time` (UTC,
/// milliseconds), `level`, `message`, `label`, then the metadata (the request line's `request_id`, `route`,
/// `status`, `duration_ms`, `account`, `client`) as strings; nested metadata is written as its text.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: LogOutput

    public init(label: String, output: LogOutput = .standardError, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.output = output
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        var line = "{\"time\":\"\(Self.timestamp())\",\"level\":\"\(event.level.rawValue)\",\"message\":"
        Self.appendQuoted("\(event.message)", to: &line)
        line += ",\"label\":"
        Self.appendQuoted(label, to: &line)
        for key in fields.keys.sorted() {
            line += ","
            Self.appendQuoted(key, to: &line)
            line += ":"
            Self.appendQuoted(fields[key]!.description, to: &line)
        }
        line += "}\n"
        output.write(line)
    }

    /// JSON string escaping: quotes, backslashes and control characters; everything else as UTF-8.
    static func appendQuoted(_ text: String, to line: inout String) {
        line += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line += "\\\""
            case "\\": line += "\\\\"
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                line += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: line.unicodeScalars.append(scalar)
            }
        }
        line += "\""
    }

    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func timestamp() -> String {
        Date.now.formatted(timeStyle)
    }
}

/// Where log lines go: standard error (one `write` a line, so lines from several threads never interleave), or a
/// closure (tests read what was logged).
public struct LogOutput: Sendable {
    private let sink: @Sendable (String) -> Void

    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    public static let standardError = LogOutput { line in
        var line = line
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    func write(_ line: String) { sink(line) }
}
