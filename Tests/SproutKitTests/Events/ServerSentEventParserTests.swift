import Foundation
import SproutKit
import Testing

/// The event-stream parser on input cut and formatted every way the standard allows.
@Suite struct ServerSentEventParserTests {
    /// Everything `text` yields when fed in chunks of `size` bytes.
    static func parse(_ text: String, chunk size: Int) -> [ServerSentEventParser.Output] {
        var parser = ServerSentEventParser()
        let bytes = Array(text.utf8)
        return stride(from: 0, to: bytes.count, by: size).flatMap { parser.feed(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    static let stream = """
        retry: 2000

        event: ready
        id: community=12
        data: {"topics":{"community":12}}

        : heartbeat

        event: post.created
        id: community=13
        data: first line
        data: 둘째 줄


        """

    @Test(arguments: [1, 2, 3, 7, 1000])
    func framesComeOutTheSameHoweverTheBytesAreCut(chunk: Int) {
        #expect(Self.parse(Self.stream, chunk: chunk) == [
            .retry(.milliseconds(2000)),
            .event(ServerSentEvent(event: "ready", data: #"{"topics":{"community":12}}"#, lastEventID: "community=12")),
            .event(ServerSentEvent(event: "post.created", data: "first line\n둘째 줄", lastEventID: "community=13")),
        ])
    }

    @Test(arguments: ["\r\n", "\r", "\n"])
    func everyLineEndEndsALine(end: String) {
        let text = ["event: a", "data: 1", "", "data: 2", "data: 3", "", ""].joined(separator: end)
        // A CRLF cut between its CR and LF must still end one line, not two (which would dispatch early).
        for chunk in [1, 2, 5] {
            #expect(Self.parse(text, chunk: chunk) == [
                .event(ServerSentEvent(event: "a", data: "1")),
                .event(ServerSentEvent(event: "message", data: "2\n3")),
            ], "chunks of \(chunk)")
        }
    }

    @Test func aLeadingBOMIsDroppedAndOnlyThere() {
        let outputs = Self.parse("\u{FEFF}data: x\n\ndata: \u{FEFF}y\n\n", chunk: 1)
        #expect(outputs == [.event(ServerSentEvent(data: "x")), .event(ServerSentEvent(data: "\u{FEFF}y"))])
    }

    @Test func commentsAndFramesWithoutDataDispatchNothingButAnIdStillCounts() {
        var parser = ServerSentEventParser(lastEventID: "old")
        #expect(parser.feed(Array(": hi\nid: a=1\nevent: ping\n\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "a=1")
        #expect(parser.feed(Array("data\n\n".utf8)) == [.event(ServerSentEvent(data: "", lastEventID: "a=1"))])
    }

    @Test func fieldsFollowTheStandardsSmallRules() {
        let outputs = Self.parse("data:no space\ndata:  two spaces\nretry: 12x\nretry: -5\nid: bad\u{0}id\nunknown: z\n\nretry:750\n", chunk: 4)
        #expect(outputs == [.event(ServerSentEvent(data: "no space\n two spaces")), .retry(.milliseconds(750))])
    }

    @Test func anUnfinishedFrameIsNotDispatched() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("id: 5\ndata: half".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)).isEmpty)
        #expect(parser.feed(Array("\n".utf8)) == [.event(ServerSentEvent(data: "half", lastEventID: "5"))])
    }
}
