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

    /// Watches `channel` (first in its pipeline, so no handler after it can swallow the event) until it closes.
    static func watch(_ channel: any Channel, departed: @escaping @Sendable () -> Void) async throws {
        channel.closeFuture.whenComplete { _ in departed() }
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(ClientDepartureWatcher(departed: departed), position: .first)
        }.get()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { departed() }
        context.fireUserInboundEventTriggered(event)
    }
}
