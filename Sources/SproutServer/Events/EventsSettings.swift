/// Limits on `GET /api/events`. Each open stream holds a connection and a buffer, so they are counted per
/// account, per address and per process (`EventStreamSlots`).
public struct EventsSettings: Sendable {
    public var streamsPerAccount = 16
    public var streamsPerAddress = 64
    public var streamsPerProcess = 20_000
    /// A stream is closed after about this long (±10 %), and its client reconnects with `Last-Event-ID`, missing
    /// nothing: so streams spread again over the nodes behind a load balancer, one added later included.
    public var streamLifetime: Duration = .seconds(30 * 60)

    static let variables = ["EVENTS_STREAMS_PER_ACCOUNT", "EVENTS_STREAMS_PER_ADDRESS", "EVENTS_STREAMS_MAX", "EVENTS_STREAM_LIFETIME"]

    public init() {}

    static func read(from reader: EnvironmentReader) throws -> EventsSettings {
        var settings = EventsSettings()
        settings.streamsPerAccount = try reader.int("EVENTS_STREAMS_PER_ACCOUNT", in: 1...10_000, default: settings.streamsPerAccount)
        settings.streamsPerAddress = try reader.int("EVENTS_STREAMS_PER_ADDRESS", in: 1...1_000_000, default: settings.streamsPerAddress)
        settings.streamsPerProcess = try reader.int("EVENTS_STREAMS_MAX", in: 1...1_000_000, default: settings.streamsPerProcess)
        settings.streamLifetime = try reader.seconds("EVENTS_STREAM_LIFETIME", default: settings.streamLifetime)
        return settings
    }
}
