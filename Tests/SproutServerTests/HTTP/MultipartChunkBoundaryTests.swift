import NIOCore
import Testing
@testable import SproutServer

/// One multipart parser reads whole bodies (`MultipartForm`) and streamed ones (the Market's uploads): the same
/// body cut into chunks at every boundary gives the same parts, or the same refusal, as the body whole.
@Suite struct MultipartChunkBoundaryTests {
    static let bodies: [String] = [
        "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n멀티파트 제목\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nJPEG\r\nDATA\r\n--B--\r\n",
        "this is a preamble\r\n--B  \r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nline one\r\nline two\r\n--B--\r\nepilogue",
        "--B\r\nContent-Type: text/plain\r\n\r\nnameless\r\n--B\r\ncontent-disposition: form-data; name=\"f\"; filename=\"한글.png\"\r\n\r\n\u{89}PNG\r\n--B--",
        // A part that holds the delimiter's beginning without its end, and an empty part.
        "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\r\n--\r\n-B--\r\n--B\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\n\r\n--B--\r\n",
    ]

    static let refused: [String] = [
        // Cut before the closing delimiter.
        "--B\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nfirst title\r\n--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nmay",
        // A header name that is no HTTP token.
        "--B\r\nCönten\u{0095}t: x\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nabc\r\n--B--\r\n",
        // No delimiter at all.
        "title=plain+form",
    ]

    @Test(arguments: bodies)
    func everyCutGivesTheWholeBodysParts(body: String) async throws {
        let bytes = Array(body.utf8)
        let whole = try await Self.parts(of: [bytes])
        #expect(!whole.isEmpty)
        for cut in 1..<bytes.count {
            #expect(try await Self.parts(of: [Array(bytes[..<cut]), Array(bytes[cut...])]) == whole, "cut at \(cut)")
        }
        #expect(try await Self.parts(of: bytes.map { [$0] }) == whole, "one byte at a time")
    }

    @Test(arguments: refused)
    func everyCutGivesTheWholeBodysRefusal(body: String) async {
        let bytes = Array(body.utf8)
        for cut in 0..<bytes.count {
            await #expect(throws: MultipartStream<Chunks>.Failure.malformed, "cut at \(cut)") {
                try await Self.parts(of: [Array(bytes[..<cut]), Array(bytes[cut...])])
            }
        }
    }

    /// The form reader gives the text fields of the stream's parts.
    @Test(arguments: bodies)
    func theFormReaderSeesTheStreamsParts(body: String) async throws {
        let fields = try await MultipartForm.parse(ByteBuffer(string: body), boundary: "B")
        let parts = try await Self.parts(of: [Array(body.utf8)])
        let named = parts.filter { $0.name?.isEmpty == false }
        #expect(Set(fields.values.keys) == Set(named.compactMap(\.name)))
        for part in named {
            let name = try #require(part.name)
            #expect(fields[name] == (part.filename != nil ? .structured : .received(part.content)))
        }
    }

    /// A part as compared: name, file name, type and bytes.
    struct SeenPart: Equatable {
        let name: String?
        let filename: String?
        let contentType: String?
        let content: [UInt8]
    }

    static func parts(of chunks: [[UInt8]]) async throws -> [SeenPart] {
        guard var stream = MultipartStream(Chunks(chunks: chunks.map { ByteBuffer(bytes: $0) }), boundary: "B", maximumParts: 100) else {
            throw MultipartStream<Chunks>.Failure.malformed
        }
        var seen: [SeenPart] = []
        while let part = try await stream.next(partLimit: { _ in 1 << 20 }) {
            seen.append(SeenPart(name: part.name, filename: part.filename, contentType: part.contentType, content: Array(part.content.readableBytesView)))
        }
        return seen
    }

    /// Chunks as they might come off the network.
    struct Chunks: AsyncSequence, AsyncIteratorProtocol {
        typealias Element = ByteBuffer
        var chunks: [ByteBuffer]

        mutating func next() async -> ByteBuffer? {
            chunks.isEmpty ? nil : chunks.removeFirst()
        }

        func makeAsyncIterator() -> Chunks { self }
    }
}
