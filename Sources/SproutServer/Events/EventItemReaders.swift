import Foundation
import NIOCore

extension EventItems {
    /// The readers every topic's events are enriched with: one per noun a list shows (`entry` has none: the Diary
    /// sends ids only). `publicURL` makes the Market's image URLs absolute, as its list writes them.
    static func standard(executor: any SQLExecutor, publicURL: String) -> EventItems {
        EventItems(readers: [
            "post": CommunityPostItems(repository: SQLCommunityRepository(executor: executor)),
            "comment": CommunityCommentItems(repository: SQLCommunityRepository(executor: executor)),
            "board-post": BoardPostItems(repository: SQLBoardRepository(executor: executor)),
            "product": MarketProductItems(repository: SQLMarketRepository(executor: executor), json: MarketJSON(publicURL: publicURL)),
            "todo": TodoItems(repository: SQLTodoRepository(executor: executor)),
        ])
    }

    /// The items of a table keyed by integers, from `read` (the rows the public sees, by id, as JSON): an id read
    /// is its row; any other is gone (deleted, or hidden by a moderator). An id that is no integer is left out.
    static func rows(for ids: [String], read: ([Int]) async throws -> [Int: ByteBuffer]) async throws -> [String: EventItem] {
        let numbered = ids.compactMap { id in Int(id).map { (id, $0) } }
        guard !numbered.isEmpty else { return [:] }
        let found = try await read(numbered.map(\.1))
        return Dictionary(numbered.map { ($0.0, found[$0.1].map(EventItem.row) ?? .gone) }, uniquingKeysWith: { first, _ in first })
    }

    /// A hand-written row, as its list's `Response.json` writes it.
    static func written(_ value: some JSONWritable) -> ByteBuffer {
        var writer = JSONWriter(capacity: 512)
        value.writeJSON(into: &writer)
        return writer.buffer
    }

    /// An encoded row, by the encoder every `Response.json(Encodable)` answer uses.
    static func encoded(_ value: some Encodable) throws -> ByteBuffer {
        ByteBuffer(bytes: try sharedJSONEncoder.encode(value))
    }
}
