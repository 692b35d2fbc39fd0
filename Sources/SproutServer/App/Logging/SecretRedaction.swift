import Foundation
import Hummingbird

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
    public static func redactingErrors<Value>(of configuration: SproutConfiguration, _ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            let message = redact(String(describing: error), databaseURL: configuration.data.databaseURL)
            throw RedactedError(description: redact(message, databaseURL: configuration.data.databaseDirectURL))
        }
    }
}

extension SecretRedaction {
    /// The request's path as the access log writes it: the Market's delete paths carry the product secret
    /// (`DELETE /api/products/{id}/{secret}`, and the v3 token `DELETE /api/products/{base64url of "id|secret"}`),
    /// which is logged as `***`. Every other path is logged as sent.
    static func loggedPath(of request: Request) -> String {
        let path = request.uri.path
        guard request.method == .delete, path.hasPrefix(productsPrefix) else { return path }
        let rest = path.dropFirst(productsPrefix.count).split(separator: "/", omittingEmptySubsequences: false)
        if rest.count == 1, rest[0].allSatisfy(\.isNumber) { return path }
        if rest.count >= 2 { return productsPrefix + rest[0] + "/***" }
        return productsPrefix + "***"
    }

    private static let productsPrefix = "/api/products/"
}

/// An error reported by its (redacted) text alone.
public struct RedactedError: Error, CustomStringConvertible {
    public let description: String
}
