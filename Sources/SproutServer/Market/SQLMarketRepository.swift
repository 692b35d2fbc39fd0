import Foundation

/// Products and their images in SQL, written once for SQLite and PostgreSQL. A detail is one statement (the product
/// joined to its images); a list page reads its total from `market_counts` and its rows with one more; a search
/// page and its total are one statement through the substring index. A product and its images are written in one
/// transaction, so no reader ever sees a product without its images.
struct SQLMarketRepository: Sendable {
    let executor: any SQLExecutor

    private static let productColumns = """
        p.id, p.vendor_id, v.name, v.created_at, p.name, p.description, p.currency, p.price, p.discounted_price,
        p.stock, p.secret, p.thumbnail_image_id, p.created_at
        """
    private static let imageColumns = "i.id, i.position, i.storage_key, i.format, i.created_at"
    private static let summaryColumns = """
        p.id, p.vendor_id, v.name, p.name, p.description, p.currency, p.price, p.discounted_price, p.stock,
        t.storage_key, t.format, p.created_at
        """
    private static let summarySource = """
        market_products p JOIN market_vendors v ON v.id = p.vendor_id
        LEFT JOIN market_images t ON t.id = p.thumbnail_image_id
        """

    // MARK: - Reads

    func product(id: Int) async throws -> MarketProduct? {
        try await product(where: "p.id = $1", .int(id))
    }

    private func product(where condition: String, _ value: SQLValue) async throws -> MarketProduct? {
        let statement = SQLStatement(
            """
            SELECT \(Self.productColumns), \(Self.imageColumns)
            FROM market_products p JOIN market_vendors v ON v.id = p.vendor_id
            LEFT JOIN market_images i ON i.product_id = p.id
            WHERE \(condition) ORDER BY i.position
            """,
            value
        )
        let rows = try await executor.read(statement, as: MarketProductRow.self)
        guard var product = rows.first?.product else { return nil }
        product.images = rows.compactMap(\.image)
        return product
    }

    func page(pageNo: Int, itemsPerPage: Int, search: String?) async throws -> MarketProductPage {
        let offset = (pageNo - 1) * itemsPerPage
        if let search {
            let rows = try await executor.slowRead(try await searchStatement(search, limit: itemsPerPage, offset: offset), as: MarketSearchRow.self)
            return MarketProductPage(pageNo: pageNo, itemsPerPage: itemsPerPage, total: rows.first?.total ?? 0, products: rows.compactMap(\.product))
        }
        let total = try await executor.readFirst(SQLStatement("SELECT products FROM market_counts WHERE id = 1"), as: SQLInt.self)?.value ?? 0
        guard offset < total else { return MarketProductPage(pageNo: pageNo, itemsPerPage: itemsPerPage, total: total, products: []) }
        // The page's ids are cut from the primary key alone, from whichever end is nearer, and only those rows
        // are joined: OFFSET over the joined rows joined every skipped row too (page 999 of 20,000 products:
        // 126 req/s, p99 3.4 s in scripts/bench).
        let end = min(offset + itemsPerPage, total)
        let fromTheEnd = total - end < offset
        let statement = SQLStatement(
            """
            SELECT \(Self.summaryColumns) FROM \(Self.summarySource)
            WHERE p.id IN (SELECT id FROM market_products ORDER BY id \(fromTheEnd ? "ASC" : "DESC") LIMIT $1 OFFSET $2)
            ORDER BY p.id DESC
            """,
            .int(end - offset), .int(fromTheEnd ? total - end : offset)
        )
        let products = try await executor.read(statement, as: MarketProductSummary.self)
        return MarketProductPage(pageNo: pageNo, itemsPerPage: itemsPerPage, total: total, products: products)
    }

    /// Matches (name or description, folded) found through the index, counted, and the page cut, in one statement.
    private func searchStatement(_ text: String, limit: Int, offset: Int) async throws -> SQLStatement {
        var statement = SQLStatement(sql: "", binds: [])
        let folded = Self.fold(text)
        let trigrams = try await MarketMigrations.search.narrowingTrigrams(of: folded, executor: executor)
        let condition = MarketMigrations.search.condition(containing: folded, narrowedBy: trigrams, statement: &statement)
        let limitPlaceholder = statement.bind(.int(limit))
        let offsetPlaceholder = statement.bind(.int(offset))
        statement.sql = """
            WITH matches AS MATERIALIZED (SELECT id FROM market_products WHERE \(condition))
            SELECT (SELECT count(*) FROM matches) AS total, page.*
            FROM (SELECT 1 AS one) AS head
            LEFT JOIN (
              SELECT \(Self.summaryColumns) FROM \(Self.summarySource)
              WHERE p.id IN (SELECT id FROM matches ORDER BY id DESC LIMIT \(limitPlaceholder) OFFSET \(offsetPlaceholder))
            ) AS page ON true
            ORDER BY page.id DESC
            """
        return statement
    }

    // MARK: - Writes

    /// The product, its images, its thumbnail choice (the first image) and the images' files (`placement`) in one
    /// transaction; answered from the database by the new product's creation key, which is unique.
    func create(
        _ draft: MarketProductDraft, vendorID: Int, images: [StoredMarketImage], placing placement: MarketImagePlacement,
        creationKey: String, at now: Date
    ) async throws -> MarketProduct {
        let product = SQLStatement(
            """
            INSERT INTO market_products
              (vendor_id, name, description, currency, price, discounted_price, stock, secret, search_text, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            """,
            .int(vendorID), .text(draft.name), .text(draft.description), .text(draft.currency.rawValue),
            .double(draft.price), .double(draft.discountedPrice), .int(draft.stock), .text(creationKey),
            .text(Self.searchText(name: draft.name, description: draft.description)), .date(now)
        )
        var imageRows = SQLStatement(sql: "", binds: [.text(creationKey), .date(now)])
        let values = images.enumerated().map { position, image in
            "((SELECT id FROM market_products WHERE secret = $1), \(imageRows.bind(.int(position))), "
                + "\(imageRows.bind(.text(image.storageKey))), \(imageRows.bind(.text(image.format.rawValue))), "
                + "\(imageRows.bind(.int(image.byteCount))), $2)"
        }
        imageRows.sql = """
            INSERT INTO market_images (product_id, position, storage_key, format, byte_count, created_at)
            VALUES \(values.joined(separator: ", "))
            """
        let thumbnail = SQLStatement(
            """
            UPDATE market_products SET thumbnail_image_id =
              (SELECT id FROM market_images WHERE product_id = market_products.id ORDER BY position LIMIT 1)
            WHERE secret = $1
            """,
            .text(creationKey)
        )
        try await executor.writeAll([product, imageRows, thumbnail] + placement.statements, beforeCommit: placement.beforeCommit)
        executor.noteGrowth(of: "market_products", by: 1)
        executor.noteGrowth(of: "market_images", by: images.count)
        guard let created = try await self.product(where: "p.secret = $1", .text(creationKey)) else {
            throw SQLRowError.missingReturnedRow
        }
        return created
    }

    /// Writes `merged` over the product only if it still holds what `current` read (else nil: someone changed it
    /// meanwhile, and the caller merges again). The money CHECKs back this up on both databases.
    func replace(_ current: MarketProduct, with merged: MarketProduct) async throws -> Bool {
        let statement = SQLStatement(
            """
            UPDATE market_products SET name = $3, description = $4, currency = $5, price = $6, discounted_price = $7,
              stock = $8, thumbnail_image_id = $9, search_text = $10
            WHERE id = $1 AND vendor_id = $2 AND name = $11 AND description = $12 AND currency = $13 AND price = $14
              AND discounted_price = $15 AND stock = $16
            RETURNING id
            """,
            .int(current.id), .int(current.vendorID), .text(merged.name), .text(merged.description), .text(merged.currency),
            .double(merged.price), .double(merged.discountedPrice), .int(merged.stock),
            merged.thumbnailImageID.map(SQLValue.int) ?? .null,
            .text(Self.searchText(name: merged.name, description: merged.description)),
            .text(current.name), .text(current.description), .text(current.currency), .double(current.price),
            .double(current.discountedPrice), .int(current.stock)
        )
        return try await executor.writeFirst(statement, as: SQLInt.self) != nil
    }

    /// True when this call deleted it (its images go with it, by cascade).
    func delete(id: Int, vendorID: Int) async throws -> Bool {
        let statement = SQLStatement("DELETE FROM market_products WHERE id = $1 AND vendor_id = $2 RETURNING id", .int(id), .int(vendorID))
        return try await executor.writeFirst(statement, as: SQLInt.self) != nil
    }

    // MARK: - Text

    static func fold(_ text: String) -> String { text.precomposedStringWithCanonicalMapping.lowercased() }

    static func searchText(name: String, description: String) -> String { fold(name) + "\n" + fold(description) }
}

// MARK: - Rows

/// A detail row: the product, then one image (NULLs for a product without images).
private struct MarketProductRow: SQLRowDecodable {
    let product: MarketProduct
    let image: MarketProductImage?

    init(row: some SQLRow) throws {
        product = MarketProduct(
            id: try row.int(0), vendorID: try row.int(1), vendorName: try row.string(2), vendorCreatedAt: try row.date(3),
            name: try row.string(4), description: try row.string(5), currency: try row.string(6), price: try row.double(7),
            discountedPrice: try row.double(8), stock: try row.int(9), creationKey: try row.string(10),
            thumbnailImageID: row.isNull(11) ? nil : try row.int(11), createdAt: try row.date(12), images: []
        )
        image = row.isNull(13) ? nil : MarketProductImage(
            id: try row.int(13), position: try row.int(14), storageKey: try row.string(15),
            format: MarketImageFormat(rawValue: try row.string(16)) ?? .jpeg, createdAt: try row.date(17)
        )
    }
}

extension MarketProductSummary: SQLRowDecodable {
    init(row: some SQLRow, offset: Int) throws {
        self.init(
            id: try row.int(offset), vendorID: try row.int(offset + 1), vendorName: try row.string(offset + 2),
            name: try row.string(offset + 3), description: try row.string(offset + 4), currency: try row.string(offset + 5),
            price: try row.double(offset + 6), discountedPrice: try row.double(offset + 7), stock: try row.int(offset + 8),
            thumbnailKey: row.isNull(offset + 9) ? nil : try row.string(offset + 9),
            thumbnailFormat: row.isNull(offset + 10) ? nil : MarketImageFormat(rawValue: try row.string(offset + 10)),
            createdAt: try row.date(offset + 11)
        )
    }

    init(row: some SQLRow) throws { try self.init(row: row, offset: 0) }
}

/// A search row: the total, then a product (NULLs when the page is past the end).
private struct MarketSearchRow: SQLRowDecodable {
    let total: Int
    let product: MarketProductSummary?

    init(row: some SQLRow) throws {
        total = try row.int(0)
        product = row.isNull(1) ? nil : try MarketProductSummary(row: row, offset: 1)
    }
}
