import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SproutKit
import Testing

/// The Bearer token stays with the server it was meant for, whatever a redirect says.
@Suite struct RedirectPolicyTests {
    static func request(_ url: String, token: String? = "secret") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue(token.map { "Bearer \($0)" }, forHTTPHeaderField: "Authorization")
        request.setValue("session=1", forHTTPHeaderField: "Cookie")
        return request
    }

    @Test func aRedirectWithinTheOriginKeepsTheToken() {
        let next = RedirectPolicy.redirect(Self.request("https://api.example.com/b"), from: Self.request("https://api.example.com/a"))
        #expect(next?.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
    }

    @Test(arguments: ["https://evil.example.com/b", "https://api.example.com:8443/b", "http://127.0.0.1:81/b"])
    func aRedirectToAnotherOriginLosesTokenAndCookies(target: String) {
        let source = target.hasPrefix("http:") ? "http://127.0.0.1/a" : "https://api.example.com/a"
        let next = RedirectPolicy.redirect(Self.request(target), from: Self.request(source))
        #expect(next != nil)
        #expect(next?.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(next?.value(forHTTPHeaderField: "Cookie") == nil)
    }

    /// Security review point 13: the vendor's identifier went on to another host, and a 307 would resend the
    /// vendor secret in the body. A request with an identifier follows no redirect, same origin or not.
    @Test(arguments: ["https://evil.example.com/api/products", "https://api.example.com/api/products/2"])
    func aMarketRequestWithItsIdentifierFollowsNoRedirect(target: String) {
        var previous = Self.request("https://api.example.com/api/products", token: nil)
        previous.setValue("cd706a3e-66db-11ec-9626-796401f2341a", forHTTPHeaderField: "identifier")
        previous.httpBody = Data(#"{"secret": "password"}"#.utf8)
        var next = Self.request(target, token: nil)
        next.setValue("cd706a3e-66db-11ec-9626-796401f2341a", forHTTPHeaderField: "identifier")
        #expect(RedirectPolicy.redirect(next, from: previous) == nil)
    }

    @Test func aRedirectFromHTTPSToPlainHTTPIsNotFollowed() {
        #expect(RedirectPolicy.redirect(Self.request("http://api.example.com/b"), from: Self.request("https://api.example.com/a")) == nil)
    }

    /// Shown on Linux with `URLSession.shared`: the token was sent on to the redirect's host.
    @Test func theDefaultTransportDoesNotCarryTheTokenToAnotherHost() async throws {
        let elsewhere = Router()
        elsewhere.get("echo") { request, _ in request.headers[.authorization] ?? "no token" }
        try await Application(router: elsewhere).test(.live) { other in
            let otherPort = try #require(other.port)
            let origin = Router()
            origin.get("away") { _, _ in
                Response(status: .found, headers: [.location: "http://127.0.0.1:\(otherPort)/echo"])
            }
            origin.get("home") { _, _ in Response(status: .found, headers: [.location: "/echo"]) }
            origin.get("echo") { request, _ in request.headers[.authorization] ?? "no token" }
            try await Application(router: origin).test(.live) { server in
                let port = try #require(server.port)
                let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
                let client = APIClient(baseURL: base, tokenProvider: { "secret" })
                let away = try await client.send(SproutKit.Request<Data>(path: "/away"))
                #expect(String(decoding: away, as: UTF8.self) == "no token")
                let home = try await client.send(SproutKit.Request<Data>(path: "/home"))
                #expect(String(decoding: home, as: UTF8.self) == "Bearer secret")
            }
        }
    }
}
