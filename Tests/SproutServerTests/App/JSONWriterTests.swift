import Foundation
import Testing
import SproutWire
@testable import SproutServer

/// The hand-written todo JSON is byte for byte what the shared JSONEncoder writes.
@Suite struct JSONWriterTests {
    static func written(_ value: some JSONWritable) -> [UInt8] {
        var writer = JSONWriter()
        value.writeJSON(into: &writer)
        return Array(writer.buffer.readableBytesView)
    }

    static func encoded(_ value: some Encodable) throws -> [UInt8] {
        Array(try sharedJSONEncoder.encode(value))
    }

    static let awkwardTitles: [String] = [
        "plain title", "따옴표 \" 와 역슬래시 \\ 그리고 /슬래시/", "tab\tnewline\nreturn\rfeed\u{0C}back\u{08}",
        "\u{00}\u{01}\u{1F}\u{7F}", "emoji 😀 and é (NFD e\u{301})", "\u{2028}\u{2029}\u{FEFF}", "",
        String((0..<32).map { Character(Unicode.Scalar($0)!) }),
    ]

    @Test func aTodoEnvelopeIsWrittenAsJSONEncoderWritesIt() throws {
        for (index, title) in Self.awkwardTitles.enumerated() {
            let todo = TodoJSON(id: index * 1_000_003, title: title, isDone: index.isMultiple(of: 2),
                                createdAt: "2023-09-16T18:07:38.000000Z", updatedAt: "2024-01-01T00:00:00.250000Z")
            let envelope = TodoEnvelope(data: todo, message: "할일 조회 성공")
            #expect(Self.written(envelope) == (try Self.encoded(envelope)), "\(title.debugDescription)")
        }
    }

    @Test func pagesFullAndEmptyAreWrittenAsJSONEncoderWritesThem() throws {
        let todos = Self.awkwardTitles.enumerated().map { index, title in
            TodoJSON(id: index + 1, title: title, isDone: false, createdAt: "2023-09-16T18:07:38.000000Z", updatedAt: "2023-09-16T18:07:38.000000Z")
        }
        for (data, page, total) in [(todos, 1, todos.count), ([], 7, 3), (Array(todos.prefix(2)), 2, 1_000_000)] {
            let envelope = TodoListEnvelope(data: data, meta: LaravelPageMeta(page: page, perPage: 2, count: data.count, total: total), message: "할일 목록 조회 성공")
            #expect(Self.written(envelope) == (try Self.encoded(envelope)))
        }
    }
}
