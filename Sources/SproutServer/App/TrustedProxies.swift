#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `TRUSTED_PROXIES`: the reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` Sprout believes. A
/// connection from any other address is its own client, whatever those headers say — otherwise anyone could name
/// a fresh address on every request and never meet a rate limit.
public struct TrustedProxies: Sendable, Equatable {
    let networks: [IPNetwork]

    /// No proxy trusted: the default.
    public static let none = TrustedProxies(networks: [])

    init(networks: [IPNetwork]) {
        self.networks = networks
    }

    /// A list of addresses and CIDR networks, separated by commas or spaces: `127.0.0.1, 10.0.0.0/8, fd00::/8`.
    public init(parsing list: String) throws {
        let items = list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
        networks = try items.map { item in
            guard let network = IPNetwork(item) else {
                throw ConfigurationError("TRUSTED_PROXIES must list IP addresses or CIDR networks (10.0.0.0/8, ::1), got '\(item)'")
            }
            return network
        }
    }

    public var isEmpty: Bool { networks.isEmpty }

    func trusts(_ address: IPAddress) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// The client behind a connection from `peer`: when `peer` is a trusted proxy, the right-most
    /// `X-Forwarded-For` address that is not itself a trusted proxy (entries further left were written by whoever
    /// sent the request and prove nothing) and the right-most `X-Forwarded-Proto`; otherwise `peer` itself.
    func client(peer: String?, forwardedFor: [String], forwardedProto: [String]) -> ClientOrigin {
        let direct = ClientOrigin(address: peer ?? "unknown", isHTTPS: false)
        guard let peer, let peerAddress = IPAddress(peer), trusts(peerAddress) else { return direct }
        var client = peerAddress
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { String($0).trimmingWhitespace }
        for hop in hops.reversed() {
            guard let address = IPAddress(Self.strippingPort(hop)) else { break }  // not an address: trust goes no further
            client = address
            if !trusts(address) { break }
        }
        let proto = forwardedProto.flatMap { $0.split(separator: ",") }.last.map { String($0).trimmingWhitespace.lowercased() }
        return ClientOrigin(address: client.description, isHTTPS: proto == "https", viaTrustedProxy: true)
    }

    /// `[2001:db8::1]:443` → `2001:db8::1`, `203.0.113.9:5123` → `203.0.113.9` (some proxies add the port).
    private static func strippingPort(_ hop: String) -> String {
        if hop.hasPrefix("["), let end = hop.firstIndex(of: "]") { return String(hop[hop.index(after: hop.startIndex)..<end]) }
        let colons = hop.filter { $0 == ":" }.count
        if colons == 1, let colon = hop.firstIndex(of: ":") { return String(hop[..<colon]) }
        return hop
    }
}

/// An IPv4 or IPv6 address as bytes (4 or 16); an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is its IPv4 one.
struct IPAddress: Sendable, Equatable, CustomStringConvertible {
    let bytes: [UInt8]

    init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        bytes = all.starts(with: mappedPrefix) ? Array(all[12...]) : all
    }

    var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An address with a prefix length: `10.0.0.0/8`; a bare address is a network of one.
struct IPNetwork: Sendable, Equatable {
    let address: IPAddress
    let prefixLength: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(String(parts[0])) else { return nil }
        let written = parts[0].contains(":") ? 128 : 32
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...written).contains(length) else { return nil }
            // A network written for an IPv4-mapped address counts in IPv4 bits.
            prefixLength = parts[0].contains(":") && address.bytes.count == 4 ? max(0, length - 96) : length
        } else {
            prefixLength = address.bytes.count * 8
        }
        self.address = address
    }

    func contains(_ other: IPAddress) -> Bool {
        guard other.bytes.count == address.bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(address.bytes, other.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            guard mine & mask == theirs & mask else { return false }
            remaining -= 8
        }
        return true
    }
}
