/// How long Community's lists may be.
///
/// | variable | default |
/// |---|---|
/// | `COMMUNITY_LIST_MAX_ROWS` | `10000` (100…1000000) |
///
/// `largeLists` is set from code only (tests shrink it).
public struct CommunitySettings: Sendable {
    /// The most posts or comments one list answer holds. `_limit=-1` ("all") and any larger `_limit` give this
    /// many; lists above a page are streamed.
    public var listMaxRows = 10_000
    /// Streamed (above one page) lists in flight: per account and in the whole process.
    var largeLists = LargeListSlots.Limits()

    static let variables = ["COMMUNITY_LIST_MAX_ROWS"]
    static let listMaxRowsRange = 100...1_000_000

    public init() {}

    static func read(from reader: EnvironmentReader) throws -> CommunitySettings {
        var settings = CommunitySettings()
        settings.listMaxRows = try reader.int("COMMUNITY_LIST_MAX_ROWS", in: listMaxRowsRange, default: settings.listMaxRows)
        return settings
    }
}
