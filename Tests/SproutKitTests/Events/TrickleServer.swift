import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-connection HTTP server on a loopback port that answers an event stream in two parts, the second only when
/// the test says: so a test sees whether a client hands out the first part while the connection stays open.
final class TrickleServer: @unchecked Sendable {
    let base: URL
    // Every access to `received` and `client` holds `lock`.
    private let lock = NSLock()
    private var received: String?
    private var client: Int32 = -1
    private let listener: Int32
    private let accepted = DispatchSemaphore(value: 0)

    /// The request's text once it arrived.
    var request: String? { lock.withLock { received } }

    init() throws {
        #if canImport(Glibc)
        let socketType = Int32(SOCK_STREAM.rawValue)
        #else
        let socketType = SOCK_STREAM
        #endif
        let listener = socket(AF_INET, socketType, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        base = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        Thread.detachNewThread { [self] in serve() }
    }

    private func serve() {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(connection, &buffer, buffer.count)
        lock.withLock {
            received = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
            client = connection
        }
        write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n")
        write("retry: 2000\n\nevent: ready\nid: community=1\ndata: {\"topics\":{\"community\":1}}\n\n")
    }

    /// Sends the second frame.
    func sendSecond() {
        write(": heartbeat\n\nevent: reset\nid: community=9\ndata: {\"topic\":\"community\"}\n\n")
    }

    func stop() {
        let connection = lock.withLock { client }
        if connection >= 0 { close(connection) }
        close(listener)
    }

    private func write(_ text: String) {
        let connection = lock.withLock { client }
        let bytes = Array(text.utf8)
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        #endif
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
    }
}
