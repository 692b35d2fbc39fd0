import Foundation
import HTTPTypes
import Hummingbird
import SproutWire

/// Writes market answers in the original server's key order, with money as JSON doubles (`1200.0`, as the live
/// server wrote it; `JSONEncoder` would write `1200`). The SproutWire types decode what is written here
/// (`MarketContractTests`).
struct MarketJSON {
    /// The public base URL, without a trailing slash; image URLs are absolute.
    let baseURL: String

    init(publicURL: String) {
        baseURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }

    func imageURL(_ name: MarketImageFileName) -> String { "\(baseURL)/market/images/\(name)" }

    func thumbnailURL(key: String?, format: MarketImageFormat?) -> String {
        guard let key, let format else { return "" }
        return imageURL(MarketImageFileName(key: key, isThumbnail: true, format: format))
    }

    func page(_ page: MarketProductPage) -> WrittenJSON {
        let envelope = MarketPageJSON(pageNo: page.pageNo, itemsPerPage: page.itemsPerPage, totalCount: page.total, pages: [])
        return WrittenJSON { writer in
            writer.raw("{\"page_no\":"); writer.int(envelope.pageNo)
            writer.raw(",\"items_per_page\":"); writer.int(envelope.itemsPerPage)
            writer.raw(",\"total_count\":"); writer.int(envelope.totalCount)
            writer.raw(",\"offset\":"); writer.int(envelope.offset)
            writer.raw(",\"limit\":"); writer.int(envelope.limit)
            writer.raw(",\"pages\":[")
            for (index, product) in page.products.enumerated() {
                if index > 0 { writer.raw(",") }
                summary(product, into: &writer)
            }
            writer.raw("],\"last_page\":"); writer.int(envelope.lastPage)
            writer.raw(",\"has_next\":"); writer.bool(envelope.hasNext)
            writer.raw(",\"has_prev\":"); writer.bool(envelope.hasPrev)
            writer.raw(",\"pageNo\":"); writer.int(envelope.pageNo)
            writer.raw(",\"itemsPerPage\":"); writer.int(envelope.itemsPerPage)
            writer.raw(",\"totalCount\":"); writer.int(envelope.totalCount)
            writer.raw(",\"lastPage\":"); writer.int(envelope.lastPage)
            writer.raw(",\"hasNext\":"); writer.bool(envelope.hasNext)
            writer.raw(",\"hasPrev\":"); writer.bool(envelope.hasPrev)
            writer.raw("}")
        }
    }

    func product(_ product: MarketProduct) -> WrittenJSON {
        WrittenJSON { writer in
            let thumbnail = product.images.first { $0.id == product.thumbnailImageID } ?? product.images.first
            let created = MarketTimestamp.string(from: product.createdAt)
            writer.raw("{\"id\":"); writer.int(product.id)
            writer.raw(",\"vendor_id\":"); writer.int(product.vendorID)
            writer.raw(",\"name\":"); writer.string(product.name)
            writer.raw(",\"thumbnail\":"); writer.string(thumbnailURL(key: thumbnail?.storageKey, format: thumbnail?.format))
            writer.raw(",\"currency\":"); writer.string(product.currency)
            writer.raw(",\"price\":"); writer.double(product.price)
            writer.raw(",\"description\":"); writer.string(product.description)
            writer.raw(",\"bargain_price\":"); writer.double(product.bargainPrice)
            writer.raw(",\"discounted_price\":"); writer.double(product.discountedPrice)
            writer.raw(",\"stock\":"); writer.int(product.stock)
            writer.raw(",\"created_at\":"); writer.string(created)
            writer.raw(",\"issued_at\":"); writer.string(created)
            writer.raw(",\"images\":[")
            for (index, image) in product.images.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.raw("{\"id\":"); writer.int(image.id)
                writer.raw(",\"url\":"); writer.string(imageURL(MarketImageFileName(key: image.storageKey, isThumbnail: false, format: image.format)))
                writer.raw(",\"thumbnail_url\":"); writer.string(imageURL(MarketImageFileName(key: image.storageKey, isThumbnail: true, format: image.format)))
                writer.raw(",\"succeed\":true,\"issued_at\":"); writer.string(MarketTimestamp.string(from: image.createdAt))
                writer.raw("}")
            }
            let vendorCreated = MarketTimestamp.string(from: product.vendorCreatedAt)
            writer.raw("],\"vendors\":{\"id\":"); writer.int(product.vendorID)
            writer.raw(",\"name\":"); writer.string(product.vendorName)
            writer.raw(",\"created_at\":"); writer.string(vendorCreated)
            writer.raw(",\"issued_at\":"); writer.string(vendorCreated)
            writer.raw(product.hiddenAt == nil ? "}}" : "},\"hidden\":true}")
        }
    }

    /// One element of a page's `pages`.
    func summary(_ product: MarketProductSummary) -> WrittenJSON {
        WrittenJSON { writer in summary(product, into: &writer) }
    }

    private func summary(_ product: MarketProductSummary, into writer: inout JSONWriter) {
        let created = MarketTimestamp.string(from: product.createdAt)
        writer.raw("{\"id\":"); writer.int(product.id)
        writer.raw(",\"vendor_id\":"); writer.int(product.vendorID)
        writer.raw(",\"vendorName\":"); writer.string(product.vendorName)
        writer.raw(",\"name\":"); writer.string(product.name)
        writer.raw(",\"description\":"); writer.string(product.description)
        writer.raw(",\"thumbnail\":"); writer.string(thumbnailURL(key: product.thumbnailKey, format: product.thumbnailFormat))
        writer.raw(",\"currency\":"); writer.string(product.currency)
        writer.raw(",\"price\":"); writer.double(product.price)
        writer.raw(",\"bargain_price\":"); writer.double(product.price - product.discountedPrice)
        writer.raw(",\"discounted_price\":"); writer.double(product.discountedPrice)
        writer.raw(",\"stock\":"); writer.int(product.stock)
        writer.raw(",\"created_at\":"); writer.string(created)
        writer.raw(",\"issued_at\":"); writer.string(created)
        writer.raw("}")
    }
}
