/// Who besides accounts may read the boards.
///
/// | variable | default |
/// |---|---|
/// | `BOARD_API_TOKEN` | unset: only account tokens work |
public struct BoardSettings: Sendable {
    /// A static Bearer token that reads every board (as the Mail Plug app's hard-coded one did); it writes nothing
    /// and owns nothing.
    public var apiToken: String?

    static let variables = ["BOARD_API_TOKEN"]

    public init(apiToken: String? = nil) {
        self.apiToken = apiToken
    }

    static func read(from reader: EnvironmentReader) -> BoardSettings {
        BoardSettings(apiToken: reader.string("BOARD_API_TOKEN"))
    }
}
