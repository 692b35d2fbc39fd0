import HTTPTypes
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing
@testable import SproutServer

/// When a client closes its side, NIO reads everything left in the socket whether the pipeline asked or not; a body
/// that comes in unasked past what two asked-for wake-ups may bring ends the connection instead of filling memory.
@Suite struct RequestArrivalLimitsTests {
    /// One socket read's worth of body, the most NIO reads at a time here.
    static let oneRead = ByteBuffer(repeating: UInt8(ascii: "a"), count: ReceiveBufferLimit.maximumReadBytes)

    /// A connection with an upload's head read, as the pipeline sees it behind the HTTP decoder.
    func connectionWithAnUploadStarted() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: RequestArrivalLimitsHandler(timeout: .seconds(60), logger: Logger(label: "test")))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        try channel.writeInbound(HTTPRequestPart.head(HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/api/products")))
        return channel
    }

    /// Body parts that reached the handlers behind this one.
    func bodyBytesPassedOn(_ channel: EmbeddedChannel) throws -> Int {
        var bytes = 0
        while let part = try channel.readInbound(as: HTTPRequestPart.self) {
            if case .body(let buffer) = part { bytes += buffer.readableBytes }
        }
        return bytes
    }

    @Test func aBodyReadAsTheServerAsksKeepsItsConnectionHoweverLong() throws {
        let channel = try connectionWithAnUploadStarted()
        var passedOn = 0
        for _ in 0..<64 {  // 4 MiB: each ask brings NIO's four reads
            channel.read()
            for _ in 0..<4 { try channel.writeInbound(HTTPRequestPart.body(Self.oneRead)) }
            passedOn += try bodyBytesPassedOn(channel)
        }
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(channel.isActive)
        #expect(passedOn == 64 * 4 * Self.oneRead.readableBytes)
        _ = try channel.finish()
    }

    @Test func aBodyPouringInUnaskedClosesItsConnectionAtTheLimit() throws {
        let channel = try connectionWithAnUploadStarted()
        channel.read()
        var written = 0
        while channel.isActive && written < 64 * Self.oneRead.readableBytes {
            try channel.writeInbound(HTTPRequestPart.body(Self.oneRead))
            written += Self.oneRead.readableBytes
        }
        #expect(!channel.isActive, "the connection should be closed")
        #expect(written == RequestArrivalLimitsHandler.unaskedBodyLimit + Self.oneRead.readableBytes)
        #expect(try bodyBytesPassedOn(channel) == RequestArrivalLimitsHandler.unaskedBodyLimit, "the part past the limit is dropped")
    }

    @Test func anAskStartsTheCountAgain() throws {
        let channel = try connectionWithAnUploadStarted()
        for _ in 0..<4 {  // each time just under the limit, then asked again
            channel.read()
            for _ in 0..<(RequestArrivalLimitsHandler.unaskedBodyLimit / Self.oneRead.readableBytes) {
                try channel.writeInbound(HTTPRequestPart.body(Self.oneRead))
            }
        }
        #expect(channel.isActive)
        _ = try channel.finish()
    }
}
