import HTTPTypes
import Logging
import NIOCore
import NIOHTTPTypes

/// Bounds how a request may arrive: how long it takes, and how much of its body comes in unasked.
///
/// - **Time**, from its head to the last byte of its body. Hummingbird's idle timeout closes a connection that
///   sends nothing (half-sent headers included), but a body that trickles in a byte at a time never looks idle;
///   this closes it once the request has taken longer than `timeout`, with a 408 first when no response has started.
/// - **Bytes read unasked.** While a handler is not taking a body (an upload waiting for its turn), the rest of it
///   waits in the kernel's socket buffer. When the client then closes its side, NIO reads everything left in that
///   buffer at once, whatever the pipeline asked for, so a client that hangs up mid-upload made the server hold its
///   whole socket buffer: 64 uploads cut off at the end of a wrk run lifted peak RSS from about 65 to 100 MiB.
///   Asked, NIO reads at most four buffers of `ReceiveBufferLimit.maximumReadBytes` a wake-up; more body than
///   twice that since the last ask means the client has gone or half-closed with a body nobody is reading, and the
///   connection is closed.
final class RequestArrivalLimitsHandler: ChannelDuplexHandler, RemovableChannelHandler {
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
    /// Body bytes that arrived since the pipeline last asked for a read.
    private var bodyBytesUnasked = 0

    /// Twice what one asked-for wake-up may bring (NIO's four reads of at most `maximumReadBytes`).
    static let unaskedBodyLimit = 2 * 4 * ReceiveBufferLimit.maximumReadBytes

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
        case .body(let part):
            bodyBytesUnasked += part.readableBytes
            if bodyBytesUnasked > Self.unaskedBodyLimit {
                closeOnBodyReadUnasked(context: context)
                return
            }
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        bodyBytesUnasked = 0
        context.read()
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

    private func closeOnBodyReadUnasked(context: ChannelHandlerContext) {
        guard !closed else { return }
        logger.debug("closing a connection that closed its side with a body nobody was reading", metadata: [
            "unasked_bytes": "\(bodyBytesUnasked)",
            "remote": "\(context.remoteAddress?.description ?? "?")",
        ])
        closed = true
        deadline?.cancel()
        deadline = nil
        context.close(promise: nil)
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
