import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// Bounds how long one request may take to arrive, from its head to the last byte of its body. Hummingbird's
/// idle timeout closes a connection that sends nothing (half-sent headers included), but a body that trickles in
/// a byte at a time never looks idle; this closes it once the request has taken longer than `timeout`, with a
/// 408 first when no response has started.
final class RequestArrivalTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private let logger: Logger
    private var deadline: Scheduled<Void>?
    /// Responses started since the request now arriving began; a 408 may only be written when there is none.
    private var responseStarted = false
    private var closed = false

    init(timeout: TimeAmount, logger: Logger) {
        self.timeout = timeout
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            responseStarted = false
            deadline?.cancel()
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                self.deadline = nil
                self.requestTookTooLong(context: context)
            }
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !closed else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        if case .head = unwrapOutboundIn(data) { responseStarted = true }
        context.write(data, promise: promise)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Here rather than in a handler of its own: every connection gets this one, and it costs no hop per read.
        ReceiveBufferLimit.apply(to: context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    private func requestTookTooLong(context: ChannelHandlerContext) {
        logger.info("closing a connection whose request did not arrive in time", metadata: [
            "timeout_s": "\(timeout.nanoseconds / 1_000_000_000)",
            "remote": "\(context.remoteAddress?.description ?? "?")",
        ])
        if !responseStarted {
            let body = ByteBuffer(string: #"{"message":"The request did not arrive in time."}"#)
            let head = HTTPResponse(status: .requestTimeout, headerFields: [
                .contentType: "application/json; charset=utf-8",
                .contentLength: String(body.readableBytes),
                .connection: "close",
            ])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        closed = true
        context.close(promise: nil)
    }
}
