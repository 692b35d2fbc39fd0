import NIOCore
import NIOPosix

/// Where a person finds a starting server, and why it cannot listen where it was told to.
public enum ListeningAddress {
    /// The address to open in a browser: the host as given, except that "every interface" (`0.0.0.0`, `::`) is
    /// reached at the loopback address; IPv6 addresses in brackets.
    public static func browserURL(hostname: String, port: Int) -> String {
        let host: String
        switch hostname {
        case "0.0.0.0", "", "*": host = "127.0.0.1"
        case "::", "[::]": host = "[::1]"
        default: host = hostname.contains(":") && !hostname.hasPrefix("[") ? "[\(hostname)]" : hostname
        }
        return "http://\(host):\(port)/"
    }

    /// Binds `hostname:port` for a moment and lets go, so a taken port is one clear line before the database is
    /// opened or migrated. (Another program may still take the port in between; the real bind then fails as usual.)
    public static func checkAvailable(hostname: String, port: Int) async throws {
        do {
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: hostname, port: port).get()
            try await channel.close()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw PortUnavailable(description: "port \(port) is in use; choose another with --port or PORT")
        } catch let error as IOError where error.errnoCode == EACCES {
            throw PortUnavailable(description: "port \(port) needs administrator rights; choose one above 1023 with --port or PORT")
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw PortUnavailable(description: "\(hostname) is not an address of this machine; choose another with --hostname or HOST")
        } catch is SocketAddressError {
            throw PortUnavailable(description: "\(hostname) is not a known host name or address; choose another with --hostname or HOST")
        }
    }
}

/// A server that cannot listen where it was told to; the description is the one line to show.
public struct PortUnavailable: Error, CustomStringConvertible {
    public let description: String
}
