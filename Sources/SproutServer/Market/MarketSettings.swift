/// Where the market keeps product images, how large they may be and how fast they may come.
///
/// | variable | default |
/// |---|---|
/// | `MARKET_IMAGE_STORAGE` | `files` (under `DATA_DIR`), or `database` |
/// | `MARKET_MAX_IMAGE_BYTES` | `307200`, the camp's 300 KiB (1024…20971520) |
/// | `MARKET_UPLOADS_PER_HOUR` | `60` per vendor, twice that per client address (0 turns both off; at most 100000) |
public struct MarketSettings: Sendable {
    /// Files under the data directory, or the database (so several servers on one PostgreSQL serve every image).
    public var imageStorage = MarketImageStorageKind.files
    /// The largest product image accepted.
    public var maxImageBytes = 307_200
    /// Products with pictures one vendor may register an hour, and twice that from one client address.
    public var uploadsPerHour = 60

    static let variables = ["MARKET_IMAGE_STORAGE", "MARKET_MAX_IMAGE_BYTES", "MARKET_UPLOADS_PER_HOUR"]

    public init() {}

    static func read(from reader: EnvironmentReader) throws -> MarketSettings {
        var settings = MarketSettings()
        settings.imageStorage = try reader.choice("MARKET_IMAGE_STORAGE", of: MarketImageStorageKind.self) ?? settings.imageStorage
        settings.maxImageBytes = try reader.int("MARKET_MAX_IMAGE_BYTES", in: 1024...(20 << 20), default: settings.maxImageBytes, unit: "bytes")
        settings.uploadsPerHour = try reader.int("MARKET_UPLOADS_PER_HOUR", in: 0...100_000, default: settings.uploadsPerHour, zeroMeans: "no limit")
        return settings
    }
}
