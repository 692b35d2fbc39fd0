/// The diary's one text view, split as the original app split it (§C.2): the **title** is the text before the
/// first line break, the **body** everything after it (`""` when there is none), and a first line that is empty
/// or only spaces means there is nothing to save. An entry opens in the editor as `title + "\n" + body`.
public enum DiaryText {
    /// The title and body of `text`, or nil when its first line is empty or only whitespace (nothing to save).
    ///
    /// The split is at the first line break (a `maxSplits: 1` split): `"\n"`, and also `"\r\n"`, `"\r"` and the
    /// other characters Swift counts as newlines (`Character.isNewline`: U+2028 and the like), because the server
    /// refuses a title holding any of them. The body is kept exactly as typed, blank lines included. The title is kept as typed too (surrounding spaces are not trimmed:
    /// they are what the person wrote).
    public static func split(_ text: String) -> (title: String, body: String)? {
        let breakIndex = text.firstIndex(where: isLineBreak)
        let title = String(breakIndex.map { text[..<$0] } ?? text[...])
        // Unicode White_Space scalars, as the server tells an empty title.
        guard !title.unicodeScalars.allSatisfy(\.properties.isWhitespace) else { return nil }
        let body = breakIndex.map { String(text[text.index(after: $0)...]) } ?? ""
        return (title, body)
    }

    /// The text an entry opens with in the editor: `title + "\n" + body`, or just the title when the body is empty.
    public static func editorText(title: String, body: String) -> String {
        body.isEmpty ? title : title + "\n" + body
    }

    /// What the share sheet gets for an entry: the title, a blank line, then the body; just the title when the
    /// body is empty. (The original app shared the title only; the kit adds the body so the shared text is the
    /// whole entry.)
    public static func shareText(title: String, body: String) -> String {
        body.isEmpty ? title : title + "\n\n" + body
    }

    /// The first line of `body`, for a list cell's one-line preview.
    public static func preview(of body: String) -> String {
        let lines = body.split(whereSeparator: isLineBreak)
        return lines.first { !$0.allSatisfy(\.isWhitespace) }.map(String.init) ?? ""
    }

    /// `"\n"`, `"\r\n"` (one `Character` in Swift), `"\r"`, U+2028, … as the server checks titles.
    private static func isLineBreak(_ character: Character) -> Bool {
        character.isNewline
    }
}
