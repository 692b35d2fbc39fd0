import Hummingbird
import NIOCore

/// A JSON array answer too large to build whole: rows are read a chunk at a time (by id, in the order the ids
/// give) and each chunk is encoded on `WorkPools.largeAnswers` and written before the next is read, so memory
/// holds one chunk however long the list, and the event loops stay free for every other request. 100,000
/// comments were one 46 MB answer built in 19 s on the event loop before.
enum StreamedJSONArray {
    /// Rows per chunk: one statement each (two for posts, with their comments), well under SQLite's bind limit.
    static let chunkSize = 500

    /// A 200 whose body is the rows of `ids`, encoded by `encode`. `slot` is held until the body is written or
    /// dropped, and the writing stops at its deadline. A failure halfway, that one included, ends the connection
    /// (the status is already sent), so a client never mistakes a cut list for a whole one.
    static func response<Row: Sendable>(
        ids: [Int],
        holding slot: LargeListSlots.Slot,
        load: @escaping @Sendable ([Int]) async throws -> [Row],
        encode: @escaping @Sendable (Row, inout JSONWriter) -> Void
    ) -> Response {
        let body = ResponseBody { writer in
            var chunkStart = ids.startIndex
            var wroteRow = false
            repeat {
                guard ContinuousClock.now < slot.deadline else { throw AnswerTooSlow() }
                let chunkEnd = min(chunkStart + chunkSize, ids.endIndex)
                let isFirst = chunkStart == ids.startIndex
                let isLast = chunkEnd == ids.endIndex
                let rows = chunkStart == chunkEnd ? [] : try await load(Array(ids[chunkStart..<chunkEnd]))
                let continuing = wroteRow
                let buffer = try await WorkPools.largeAnswers.runIfActive {
                    var json = JSONWriter(capacity: 64 * 1024)
                    if isFirst { json.raw("[") }
                    for (index, row) in rows.enumerated() {
                        if continuing || index > 0 { json.raw(",") }
                        encode(row, &json)
                    }
                    if isLast { json.raw("]") }
                    return json.buffer
                }
                wroteRow = wroteRow || !rows.isEmpty
                try await writer.write(buffer)
                chunkStart = chunkEnd
            } while chunkStart < ids.endIndex
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: body)
    }
}

/// A streamed answer the client did not take within its slot's time: the connection is closed.
struct AnswerTooSlow: Error {}
