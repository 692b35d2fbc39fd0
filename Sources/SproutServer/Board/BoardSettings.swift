/// Who besides accounts may read the boards.
///
/// | variable | default |
/// |---|---|
/// | `BOARD_API_TOKEN` (one word of visible ASCII) | unset: only account tokens work |
public struct BoardSettings: Sendable {
    /// A static Bearer token that reads every board (as the Mail Plug app's hard-coded one did); it writes nothing
    /// and owns nothing. One word, since `Authorization: Bearer …` could never carry a space inside it.
    @Redacted public var apiToken: String?

    static let variables = ["BOARD_API_TOKEN"]

    public init(apiToken: String? = nil) {
        self.apiToken = apiToken
    }

    static func read(from reader: EnvironmentReader) throws -> BoardSettings {
        BoardSettings(apiToken: try reader.token("BOARD_API_TOKEN"))
    }
}
