import NIOCore

/// Reads a `multipart/form-data` body (RFC 7578) part by part as it arrives, so an upload is never held whole:
/// at most one part (bounded by `partLimit`) and one network chunk are in memory at a time. Each part is handed
/// over complete, with its `Content-Disposition` name and file name and its `Content-Type`.
///
/// The Market's uploads stream through it, and `MultipartForm` reads buffered text forms with it. Delimiters are searched only in bytes
/// not yet searched (less the delimiter's length), so a part costs time linear in its size whatever its chunks.
struct MultipartStream<Chunks: AsyncSequence> where Chunks.Element == ByteBuffer {
    enum Failure: Error, Equatable {
        case malformed
        /// A part was longer than its limit; `name` is the part's field name.
        case partTooLarge(name: String?, limit: Int)
        case tooManyParts(limit: Int)
    }

    struct Part: Sendable {
        let name: String?
        let filename: String?
        let contentType: String?
        let content: ByteBuffer
    }

    private var chunks: Chunks.AsyncIterator
    private var buffer = ByteBuffer()
    /// `\r\n--boundary`: what ends every part.
    private let delimiter: [UInt8]
    private let maximumParts: Int
    private var partsRead = 0
    private var state = State.preamble

    private enum State {
        case preamble
        case afterDelimiter
        case finished
    }

    static var maximumHeaderBytes: Int { 16 * 1024 }
    static var maximumPreambleBytes: Int { 16 * 1024 }

    /// Nil unless `contentType` is `multipart/form-data` with a usable boundary.
    init?(_ chunks: Chunks, contentType: String?, maximumParts: Int) {
        let type = contentType.map(HeaderParameters.init)
        guard type?.value == "multipart/form-data", let boundary = type?["boundary"] else { return nil }
        self.init(chunks, boundary: boundary, maximumParts: maximumParts)
    }

    /// Nil for a boundary no delimiter line can match: empty, longer than 200 bytes (RFC 2046 allows 70), or
    /// holding a line break.
    init?(_ chunks: Chunks, boundary: String, maximumParts: Int) {
        guard !boundary.isEmpty, boundary.utf8.count <= 200, !boundary.utf8.contains(0x0D), !boundary.utf8.contains(0x0A)
        else { return nil }
        self.chunks = chunks.makeAsyncIterator()
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.maximumParts = maximumParts
    }

    /// The next part, or nil after the closing delimiter. `partLimit` gives the most bytes a part of that field
    /// name may hold. Throws `Failure`, or `ClientWentAway` when the connection fails mid-body.
    mutating func next(partLimit: (String?) -> Int) async throws -> Part? {
        switch state {
        case .finished:
            return nil
        case .preamble:
            // The first delimiter starts the body, or follows a preamble line; `\r\n` is put in front so one
            // search finds either.
            var start = ByteBuffer(bytes: [0x0D, 0x0A])
            try await fill(atLeast: 1)
            start.writeBuffer(&buffer)
            buffer = start
            guard let found = try await find(delimiter, from: 0, limit: Self.maximumPreambleBytes) else { throw Failure.malformed }
            buffer.moveReaderIndex(forwardBy: found + delimiter.count)
            state = .afterDelimiter
        case .afterDelimiter:
            break
        }
        // After a delimiter: `--` closes the body (an epilogue may follow and is ignored), or optional white
        // space and CRLF open a part.
        try await fill(atLeast: 2)
        if buffer.readableBytesView.starts(with: [0x2D, 0x2D]) {
            state = .finished
            return nil
        }
        while let byte = buffer.readableBytesView.first, byte == 0x20 || byte == 0x09 {
            buffer.moveReaderIndex(forwardBy: 1)
            try await fill(atLeast: 2)
        }
        guard buffer.readableBytesView.starts(with: [0x0D, 0x0A]) else { throw Failure.malformed }
        buffer.moveReaderIndex(forwardBy: 2)
        partsRead += 1
        guard partsRead <= maximumParts else { throw Failure.tooManyParts(limit: maximumParts) }

        let headers = try await readHeaders()
        let disposition = headers["content-disposition"].map(HeaderParameters.init)
        let name = disposition?["name"]
        let limit = partLimit(name)
        guard let end = try await find(delimiter, from: 0, limit: limit + delimiter.count) else {
            throw Failure.partTooLarge(name: name, limit: limit)
        }
        guard end <= limit else { throw Failure.partTooLarge(name: name, limit: limit) }
        let filename = disposition?["filename"], contentType = headers["content-type"]
        var content = buffer.readSlice(length: end)!
        buffer.moveReaderIndex(forwardBy: delimiter.count)
        if end >= buffer.capacity / 4 {
            // A large part (a picture) is most of the buffer, which grew to hold it: the part keeps that buffer, and
            // reading goes on in a new one. A copy kept both while the picture waited to be decoded, about 1 MB a
            // request (uploads lifted peak RSS by 84 MiB at 64 connections).
            buffer = ByteBuffer(buffer: buffer.readSlice(length: buffer.readableBytes)!)
        } else {
            // The part's own copy, so the (possibly large) buffer behind it is not kept alive by a small slice.
            content = ByteBuffer(buffer: content)
        }
        return Part(name: name, filename: filename, contentType: contentType, content: content)
    }

    /// Header lines up to the empty line, names lowercased and checked to be HTTP tokens.
    private mutating func readHeaders() async throws -> [String: String] {
        try await fill(atLeast: 2)
        if buffer.readableBytesView.starts(with: [0x0D, 0x0A]) {
            buffer.moveReaderIndex(forwardBy: 2)
            return [:]
        }
        guard let end = try await find([0x0D, 0x0A, 0x0D, 0x0A], from: 0, limit: Self.maximumHeaderBytes) else {
            throw Failure.malformed
        }
        let block = buffer.readSlice(length: end)!
        buffer.moveReaderIndex(forwardBy: 4)
        var headers: [String: String] = [:]
        for line in block.readableBytesView.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var line = line
            if line.last == 0x0D { line = line.dropLast() }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[..<colon].allSatisfy(isHTTPTokenCharacter)
            else { throw Failure.malformed }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            headers[name] = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingWhitespace
        }
        return headers
    }

    /// Reads chunks until at least `count` bytes are buffered; a body that ends first is malformed.
    private mutating func fill(atLeast count: Int) async throws {
        while buffer.readableBytes < count {
            guard var chunk = try await nextChunk() else { throw Failure.malformed }
            buffer.writeBuffer(&chunk)
        }
    }

    /// The next network chunk; the body's own errors mean the connection failed (`ClientWentAway`).
    private mutating func nextChunk() async throws -> ByteBuffer? {
        do {
            return try await chunks.next()
        } catch {
            throw ClientWentAway(underlying: error)
        }
    }

    /// The offset of `needle` in the buffered bytes, reading more as needed; nil once `limit` bytes were
    /// searched without finding it. Each byte is compared as a candidate start once.
    private mutating func find(_ needle: [UInt8], from start: Int, limit: Int) async throws -> Int? {
        var searchedUpTo = start
        while true {
            if let found = Self.search(needle, in: buffer.readableBytesView, from: searchedUpTo) { return found }
            searchedUpTo = max(start, buffer.readableBytes - needle.count + 1)
            if searchedUpTo > limit { return nil }
            guard var chunk = try await nextChunk() else { throw Failure.malformed }
            if buffer.readerIndex > 0, buffer.readerIndex >= buffer.capacity / 2 { buffer.discardReadBytes() }
            buffer.writeBuffer(&chunk)
        }
    }

    private static func search(_ needle: [UInt8], in bytes: ByteBufferView, from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        let first = needle[0]
        var index = bytes.index(bytes.startIndex, offsetBy: start)
        let lastStart = bytes.index(bytes.endIndex, offsetBy: -needle.count)
        while index <= lastStart {
            guard let candidate = bytes[index...lastStart].firstIndex(of: first) else { return nil }
            if bytes[candidate..<(candidate + needle.count)].elementsEqual(needle) {
                return bytes.distance(from: bytes.startIndex, to: candidate)
            }
            index = candidate + 1
        }
        return nil
    }
}
