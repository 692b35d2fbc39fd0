import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import SproutServer

/// `TRUSTED_PROXIES`: behind a listed proxy the client is the right-most `X-Forwarded-For` address that is not
/// itself a proxy; from anywhere else the forwarding headers are ignored, so they cannot dodge a limit.
@Suite struct TrustedProxiesTests {
    private static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    @Test func behindATrustedProxyOneClientsFailuresDoNotLockOutAnother() async throws {
        // Live: the test client connects from 127.0.0.1, which plays the proxy.
        try await withTestApp(.live, configure: { $0.server.trustedProxies = try! TrustedProxies(parsing: "127.0.0.1, 10.0.0.0/8") }) { client, _ in
            try await client.signUp("victim")
            for index in 0..<20 {
                let guess = try await client.sendForm(.post, "/auth/local", "identifier=guess\(index)&password=wrong-pass",
                                                      headers: [Self.forwardedFor: "203.0.113.5"])
                #expect(guess.status == .badRequest)
            }
            // The guesser is limited, also when it claims an address further left (it cannot choose the one the proxy adds)…
            let limited = try await client.sendForm(.post, "/auth/local", "identifier=victim&password=password1",
                                                    headers: [Self.forwardedFor: "198.51.100.99, 203.0.113.5"])
            #expect(limited.status == .tooManyRequests)
            // …while another client behind the same proxy (and a second proxy hop in 10/8) signs in.
            let other = try await client.sendForm(.post, "/auth/local", "identifier=victim&password=password1",
                                                  headers: [Self.forwardedFor: "198.51.100.7, 10.1.2.3"])
            #expect(other.status == .ok)
        }
    }

    @Test func withoutATrustedProxyVaryingXForwardedForDoesNotEscapeTheLimit() async throws {
        try await withTestApp(.live) { client, _ in
            try await client.signUp("victim")
            for index in 0..<20 {
                _ = try await client.sendForm(.post, "/auth/local", "identifier=guess\(index)&password=wrong-pass",
                                              headers: [Self.forwardedFor: "203.0.113.\(index + 1)"])
            }
            let limited = try await client.sendForm(.post, "/auth/local", "identifier=victim&password=password1",
                                                    headers: [Self.forwardedFor: "198.51.100.7"])
            #expect(limited.status == .tooManyRequests)
        }
    }

    @Test func theClientIsTheRightMostAddressThatIsNotATrustedProxy() throws {
        let proxies = try TrustedProxies(parsing: "127.0.0.1 10.0.0.0/8,fd00::/8")
        func client(_ peer: String?, _ forwardedFor: [String], proto: [String] = []) -> ClientOrigin {
            proxies.client(peer: peer, forwardedFor: forwardedFor, forwardedProto: proto)
        }
        #expect(client("127.0.0.1", ["203.0.113.5"]) == ClientOrigin(address: "203.0.113.5", isHTTPS: false, viaTrustedProxy: true))
        #expect(client("127.0.0.1", ["1.1.1.1, 203.0.113.5, 10.0.0.7"]).address == "203.0.113.5")
        #expect(client("127.0.0.1", ["1.1.1.1", "203.0.113.5"]).address == "203.0.113.5", "several header lines read as one list")
        #expect(client("fd00::2", ["2001:db8::1"], proto: ["https"]) == ClientOrigin(address: "2001:db8::1", isHTTPS: true, viaTrustedProxy: true))
        #expect(client("::ffff:127.0.0.1", ["203.0.113.5:5123"]).address == "203.0.113.5", "a mapped peer, a port on the hop")
        #expect(client("127.0.0.1", ["[2001:db8::9]:443"]).address == "2001:db8::9")
        #expect(client("127.0.0.1", ["10.0.0.1, 10.0.0.2"]).address == "10.0.0.1", "all proxies: the left-most")
        #expect(client("127.0.0.1", ["evil, 10.0.0.2"]).address == "10.0.0.2", "trust stops at what is no address")
        #expect(client("127.0.0.1", []).address == "127.0.0.1")
        #expect(client("127.0.0.1", ["203.0.113.5"], proto: ["http, https"]).isHTTPS)
        // Not from a proxy: the headers count for nothing.
        #expect(client("192.0.2.50", ["203.0.113.5"], proto: ["https"]) == ClientOrigin(address: "192.0.2.50", isHTTPS: false))
        #expect(client(nil, ["203.0.113.5"]).address == "unknown")
        #expect(TrustedProxies.none.client(peer: "127.0.0.1", forwardedFor: ["203.0.113.5"], forwardedProto: []).address == "127.0.0.1")
    }

    @Test func trustedProxiesComeFromTheEnvironmentAndBadOnesStopTheStart() throws {
        #expect(try SproutConfiguration.fromEnvironment([:]).server.trustedProxies.isEmpty)
        let configured = try SproutConfiguration.fromEnvironment(["TRUSTED_PROXIES": "10.0.0.0/8, ::1"])
        #expect(configured.server.trustedProxies.networks.count == 2)
        for bad in ["10.0.0.0/33", "proxy.example.com", "10.0.0.0/", "::1/129"] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try SproutConfiguration.fromEnvironment(["TRUSTED_PROXIES": bad]) }
        }
        let network = try #require(IPNetwork("192.168.0.0/16"))
        let inside = try #require(IPAddress("192.168.250.1")), outside = try #require(IPAddress("192.169.0.1"))
        #expect(network.contains(inside) && !network.contains(outside))
        let everything = try #require(IPNetwork("0.0.0.0/0"))
        #expect(everything.contains(try #require(IPAddress("8.8.8.8"))))
        #expect(!everything.contains(try #require(IPAddress("::1"))), "IPv4 networks hold no IPv6 address")
    }
}
