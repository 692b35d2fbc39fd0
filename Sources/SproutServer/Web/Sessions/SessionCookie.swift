/// The `Set-Cookie` values for the web app's session cookie. HttpOnly: page scripts never need the token, so a
/// script injected into a page cannot read it either. SameSite=Lax: other sites' forms and fetches do not carry
/// it (links to Sprout still do, so following a link arrives signed in). Secure when the public address is
/// https, or a trusted proxy says the client came over HTTPS (`X-Forwarded-Proto`), so the token never travels
/// in clear text; not otherwise, or a plain-http development server could never sign anyone in.
struct SessionCookie: Sendable {
    let secure: Bool

    init(publicURL: String) {
        secure = publicURL.lowercased().hasPrefix("https:")
    }

    /// Starts a session in the browser for `WebSessions.lifetime`.
    func setting(_ token: String, overHTTPS: Bool = false) -> String {
        attributes("\(WebSessions.cookieName)=\(token)", maxAge: Int(WebSessions.lifetime), secure: secure || overHTTPS)
    }

    /// Makes the browser forget the cookie (logout, or a cookie the server no longer knows).
    func clearing(overHTTPS: Bool = false) -> String {
        attributes("\(WebSessions.cookieName)=", maxAge: 0, secure: secure || overHTTPS)
    }

    private func attributes(_ pair: String, maxAge: Int, secure: Bool) -> String {
        pair + "; Path=/; HttpOnly; SameSite=Lax; Max-Age=\(maxAge)" + (secure ? "; Secure" : "")
    }
}
