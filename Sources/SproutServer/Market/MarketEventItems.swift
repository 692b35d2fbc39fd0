import NIOCore

/// A product as the products list (`GET /api/products`) shows it in `pages`. Nothing in it depends on the caller;
/// a hidden product is gone.
struct MarketProductItems: EventItemReader {
    let repository: SQLMarketRepository
    let json: MarketJSON

    func items(ids: [String]) async throws -> [String: EventItem] {
        try await EventItems.rows(for: ids) { ids in
            var rows: [Int: ByteBuffer] = [:]
            for product in try await repository.publicSummaries(ids: ids) {
                rows[product.id] = EventItems.written(json.summary(product))
            }
            return rows
        }
    }
}
