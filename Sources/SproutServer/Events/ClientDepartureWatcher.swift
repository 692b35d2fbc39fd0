import NIOConcurrencyHelpers
import NIOCore

/// Tells a long answer that its client has left: the connection closed, or only its input (the server allows
/// half-closed connections, so a client's FIN alone closes nothing, and a write would fail only at the next
/// heartbeat, 15 s on, holding the stream's slot and buffer meanwhile).
final class ClientDepartureWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let departed: @Sendable () -> Void

    private init(departed: @escaping @Sendable () -> Void) {
        self.departed = departed
    }

    /// One answer's watch on its connection, until `end()` (the answer is done; the connection may carry the next).
    struct Watch: Sendable {
        let channel: any Channel
        let name: String

        func end() {
            channel.pipeline.removeHandler(name: name, promise: nil)
        }
    }

    private static let counter = NIOLockedValueBox(0)

    /// Watches `channel`, first in its pipeline so no handler after it can swallow the event.
    static func watch(_ channel: any Channel, departed: @escaping @Sendable () -> Void) async throws -> Watch {
        let name = "sprout-client-departure-\(counter.withLockedValue { counter in counter += 1; return counter })"
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(ClientDepartureWatcher(departed: departed), name: name, position: .first)
        }.get()
        return Watch(channel: channel, name: name)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { departed() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        departed()
        context.fireChannelInactive()
    }
}
