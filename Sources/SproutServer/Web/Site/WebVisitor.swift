import Foundation
import Hummingbird

/// Who is looking at a page: the account the session cookie (or a Bearer token) names, as pages show it.
/// A stale or rejected credential is simply nobody: the page shows its signed-out form.
struct WebVisitor: Sendable {
    let id: Int
    let username: String
    /// Moderators and admins: the header links to the console (`/admin`).
    let mayModerate: Bool

    init(_ account: Account) {
        id = account.id
        username = account.username
        mayModerate = account.role.mayModerate && !account.isBlocked
    }
}

extension Request {
    /// Where a page was asked for (path and query), for a log-in link that comes back here afterwards.
    var pageAddress: String {
        uri.query.map { uri.path + "?" + $0 } ?? uri.path
    }

    /// The log-in page, coming back to this page afterwards (the header's link and the sign-in prompts).
    var logInPath: String {
        "/account/login?next=" + LocalAddress.encoded(pageAddress)
    }
}

/// A `next=` address from a query: only a path on this site, so a crafted log-in link cannot send someone to
/// another site after they sign in (`//evil.example` and `/\evil.example` are other sites to a browser).
enum LocalAddress {
    static func validated(_ candidate: String?, default fallback: String) -> String {
        guard let candidate, candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.hasPrefix("/\\"),
            !candidate.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true })
        else { return fallback }
        return candidate
    }

    /// `path` as a query value.
    static func encoded(_ path: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? "/"
    }
}
