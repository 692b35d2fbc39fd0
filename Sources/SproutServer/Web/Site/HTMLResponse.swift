import HTTPTypes
import Hummingbird

extension Response {
    /// An HTML page. Pages show who is signed in, so no shared cache may keep them and a browser's cache keeps
    /// them apart by cookie. The policy allows only this origin's own files (the page fetches nothing from the internet),
    /// plus `data:` images for the inline favicon and `blob:` images for the market form's previews of the pictures
    /// a visitor picked (object URLs of local files, made by the page itself).
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8",
                .cacheControl: "private, no-cache",
                .vary: "Cookie",
                .contentSecurityPolicy: "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
                .xContentTypeOptions: "nosniff",
                // Links lead only to this site's own pages; other sites are told nothing of where a visitor was.
                .referrerPolicy: "same-origin",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }
}

extension HTTPField.Name {
    static var referrerPolicy: Self { .init("Referrer-Policy")! }
}
