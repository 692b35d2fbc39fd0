import Foundation

/// Keeps the database password out of every message Sprout prints: logs, configuration errors and errors
/// thrown while connecting (a driver may quote the URL it was given).
public enum SecretRedaction {
    /// The URL with the password of its user info replaced by `***`. Works on text, not on a parsed URL,
    /// so that a URL too malformed to parse is still redacted.
    public static func redactingPassword(in url: String) -> String {
        guard let password = password(in: url) else { return url }
        return url.replacingOccurrences(of: ":" + password + "@", with: ":***@")
    }

    /// `message` with the URL's password, wherever it appears, replaced by `***`.
    public static func redact(_ message: String, databaseURL: String?) -> String {
        guard let databaseURL, let password = password(in: databaseURL) else { return message }
        var redacted = message.replacingOccurrences(of: databaseURL, with: redactingPassword(in: databaseURL))
        redacted = redacted.replacingOccurrences(of: password, with: "***")
        if let decoded = password.removingPercentEncoding, decoded != password {
            redacted = redacted.replacingOccurrences(of: decoded, with: "***")
        }
        return redacted
    }

    /// The text between the first `:` of the user info and its last `@`, if there is one.
    static func password(in url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let afterScheme = url[schemeEnd.upperBound...]
        // The user info ends at the last `@` before the path: passwords may contain `@` when not escaped.
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return nil }
        let password = userInfo[userInfo.index(after: colon)...]
        return password.isEmpty ? nil : String(password)
    }

    /// Runs `body`; an error it throws comes out as a `RedactedError` whose text has the database password
    /// blanked out, since drivers may quote the URL they were given.
    public static func redactingErrors(of configuration: SproutConfiguration, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            throw RedactedError(description: redact(String(describing: error), databaseURL: configuration.databaseURL))
        }
    }
}

/// An error reported by its (redacted) text alone.
public struct RedactedError: Error, CustomStringConvertible {
    public let description: String
}
