import Foundation
import NIOCore
import NIOPosix

/// A bare TCP connection to a live test server, for requests no HTTP client would send: half-sent headers,
/// bodies that trickle in or stop midway.
struct RawConnection {
    let inbound: NIOAsyncChannelInboundStream<ByteBuffer>
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    static func open<Value: Sendable>(port: Int, _ body: (RawConnection) async throws -> Value) async throws -> Value {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await body(RawConnection(inbound: inbound, outbound: outbound))
        }
    }

    func send(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Everything the server sends until it closes the connection, or nil when it is still open after `limit`.
    func readUntilClosed(within limit: Duration) async throws -> String? {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                var text = ""
                do {
                    for try await buffer in inbound { text += String(buffer: buffer) }
                } catch {
                    // A reset is a close too.
                }
                return text
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
