import Foundation

/// A plain-text mail, written as RFC 5322 + MIME: UTF-8 text in base64 (so Korean and long lines travel through
/// any relay), the subject and display names as RFC 2047 encoded words, CRLF line ends.
struct MailMessage: Sendable, Equatable {
    var from: MailAddress
    var to: String
    var subject: String
    var body: String

    /// The whole message, ready for SMTP's DATA (before dot-stuffing, which `SMTPClient` does).
    func rendered(date: Date, messageID: String) -> String {
        var lines = [
            "From: " + Self.header(from),
            "To: <\(to)>",
            "Subject: " + Self.encodedWords(subject),
            "Date: " + Self.rfc5322Date(date),
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=UTF-8",
            "Content-Transfer-Encoding: base64",
            "",
        ]
        let normalized = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        lines.append(contentsOf: Data(normalized.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
            .components(separatedBy: "\r\n"))
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static func header(_ address: MailAddress) -> String {
        guard let name = address.name else { return "<\(address.address)>" }
        return encodedWords(name) + " <\(address.address)>"
    }

    /// ASCII without specials as it is; anything else as `=?UTF-8?B?…?=` words of at most 45 bytes of text each
    /// (75 characters encoded, RFC 2047's limit), never splitting a character.
    static func encodedWords(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F } && !text.contains("=?")
        if plain { return text }
        var words: [String] = []
        var chunk = Data()
        for character in text {
            let bytes = Data(String(character).utf8)
            if chunk.count + bytes.count > 45 {
                words.append("=?UTF-8?B?\(chunk.base64EncodedString())?=")
                chunk = Data()
            }
            chunk.append(bytes)
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?\(chunk.base64EncodedString())?=") }
        return words.joined(separator: "\r\n ")
    }

    /// `Thu, 26 Nov 2026 18:43:53 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
