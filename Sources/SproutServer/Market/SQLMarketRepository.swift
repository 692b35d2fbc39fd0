import Foundation

/// Products and their images in SQL, written once for SQLite and PostgreSQL. A detail is one statement (the product
/// joined to its images); a list page reads its total from `market_counts` and its rows with one more; a search
/// page and its total are one statement through the substring index. A product and its images are written in one
/// transaction, so no reader ever sees a product without its images.
struct SQLMarketRepository: Sendable {
    let executor: any SQLExecutor

    /// What `MarketProductRow` reads.
    private static let productColumns = """
        p.id, p.vendor_id, v.name AS vendor_name, v.created_at AS vendor_created_at, p.name, p.description, p.currency,
        p.price, p.discounted_price, p.stock, p.secret, p.thumbnail_image_id, p.created_at, v.account_id AS vendor_account_id, p.hidden_at,
        \(prefixedColumns(["id", "position", "storage_key", "format", "created_at"], of: "i", as: "image_"))
        """
    /// What `MarketProductSummary(row:)` reads.
    private static let summaryColumns = """
        p.id, p.vendor_id, v.name AS vendor_name, p.name, p.description, p.currency, p.price, p.discounted_price, p.stock,
        t.storage_key AS thumbnail_key, t.format AS thumbnail_format, p.created_at
        """
    private static let summarySource = """
        market_products p JOIN market_vendors v ON v.id = p.vendor_id
        LEFT JOIN market_images t ON t.id = p.thumbnail_image_id
        """

    // MARK: - Reads

    func product(id: Int) async throws -> MarketProduct? {
        try await product(where: "p.id = \(bind: id)")
    }

    private func product(where condition: SQLStatement) async throws -> MarketProduct? {
        let statement: SQLStatement = """
            SELECT \(raw: Self.productColumns)
            FROM market_products p JOIN market_vendors v ON v.id = p.vendor_id
            LEFT JOIN market_images i ON i.product_id = p.id
            WHERE \(condition) ORDER BY i.position
            """
        // Kept prepared: a lookup by key (an id or a creation key), whose plan does not depend on the value.
        let rows = try await executor.read(statement.prepared(), as: MarketProductRow.self)
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
        let total = try await executor.readFirst("SELECT products FROM market_counts WHERE id = 1", as: SQLInt.self)?.value ?? 0
        guard let cut = PageCut(offset: offset, limit: itemsPerPage, total: total) else {
            return MarketProductPage(pageNo: pageNo, itemsPerPage: itemsPerPage, total: total, products: [])
        }
        // The page's ids are cut from the primary key alone, from whichever end is nearer, and only those rows
        // are joined: OFFSET over the joined rows joined every skipped row too (page 999 of 20,000 products:
        // 126 req/s, p99 3.4 s in scripts/bench).
        let statement: SQLStatement = """
            SELECT \(raw: Self.summaryColumns) FROM \(raw: Self.summarySource)
            WHERE p.id IN (
              SELECT id FROM market_products WHERE hidden_at IS NULL ORDER BY id \(raw: cut.direction(descending: true)) \(cut.limitClause)
            )
            ORDER BY p.id DESC
            """
        let products = try await executor.read(statement, as: MarketProductSummary.self)
        return MarketProductPage(pageNo: pageNo, itemsPerPage: itemsPerPage, total: total, products: products)
    }

    /// The products with these ids as a list page shows them; a product deleted or hidden is left out. For the
    /// events' items.
    func publicSummaries(ids: [Int]) async throws -> [MarketProductSummary] {
        guard !ids.isEmpty else { return [] }  // PostgreSQL refuses an empty IN ()
        let statement: SQLStatement = """
            SELECT \(raw: Self.summaryColumns) FROM \(raw: Self.summarySource) WHERE p.id IN (\(list: ids)) AND p.hidden_at IS NULL
            """
        return try await executor.read(statement, as: MarketProductSummary.self)
    }

    /// Matches (name or description, folded) found through the index, counted, and the page cut, in one statement.
    private func searchStatement(_ text: String, limit: Int, offset: Int) async throws -> SQLStatement {
        let folded = Self.fold(text)
        let trigrams = try await MarketMigrations.search.narrowingTrigrams(of: folded, executor: executor)
        return """
            WITH matches AS MATERIALIZED (
              SELECT id FROM market_products
              WHERE \(MarketMigrations.search.condition(containing: folded, narrowedBy: trigrams)) AND hidden_at IS NULL
            )
            SELECT (SELECT count(*) FROM matches) AS total, page.*
            FROM (SELECT 1 AS one) AS head
            LEFT JOIN (
              SELECT \(raw: Self.summaryColumns) FROM \(raw: Self.summarySource)
              WHERE p.id IN (SELECT id FROM matches ORDER BY id DESC LIMIT \(bind: limit) OFFSET \(bind: offset))
            ) AS page ON true
            ORDER BY page.id DESC
            """
    }

    // MARK: - Writes

    /// The product, its images, its thumbnail choice (the first image) and the images' files (`placement`) in one
    /// transaction; answered from the database by the new product's creation key, which is unique.
    func create(
        _ draft: MarketProductDraft, vendorID: Int, images: [StoredMarketImage], placing placement: MarketImagePlacement,
        creationKey: String, at now: Date
    ) async throws -> MarketProduct {
        let product: SQLStatement = """
            INSERT INTO market_products
              (vendor_id, name, description, currency, price, discounted_price, stock, secret, search_text, created_at)
            VALUES (
              \(bind: vendorID), \(bind: draft.name), \(bind: draft.description), \(bind: draft.currency.rawValue),
              \(bind: draft.price), \(bind: draft.discountedPrice), \(bind: draft.stock), \(bind: creationKey),
              \(bind: Self.searchText(name: draft.name, description: draft.description)), \(bind: now)
            )
            """
        let imageValues = images.enumerated().map { position, image -> SQLStatement in
            """
            ((SELECT id FROM market_products WHERE secret = \(bind: creationKey)), \(bind: position), \(bind: image.storageKey),
             \(bind: image.format.rawValue), \(bind: image.byteCount), \(bind: now))
            """
        }
        let imageRows: SQLStatement = """
            INSERT INTO market_images (product_id, position, storage_key, format, byte_count, created_at)
            VALUES \(.joined(imageValues, separator: ", "))
            """
        let thumbnail: SQLStatement = """
            UPDATE market_products SET thumbnail_image_id =
              (SELECT id FROM market_images WHERE product_id = market_products.id ORDER BY position LIMIT 1)
            WHERE secret = \(bind: creationKey)
            """
        try await executor.writeAll([product, imageRows, thumbnail] + placement.statements, beforeCommit: placement.beforeCommit)
        executor.noteGrowth(of: "market_products", by: 1)
        executor.noteGrowth(of: "market_images", by: images.count)
        guard let created = try await self.product(where: "p.secret = \(bind: creationKey)") else {
            throw SQLRowError.missingReturnedRow
        }
        return created
    }

    /// Writes `merged` over the product only if it still holds what `current` read (else nil: someone changed it
    /// meanwhile, and the caller merges again), and answers the product as the UPDATE left it: its columns from
    /// `RETURNING`, its images and vendor from `current` (a PATCH changes neither). The money CHECKs back this up on
    /// both databases.
    func replace(_ current: MarketProduct, with merged: MarketProduct) async throws -> MarketProduct? {
        let statement: SQLStatement = """
            UPDATE market_products SET name = \(bind: merged.name), description = \(bind: merged.description),
              currency = \(bind: merged.currency), price = \(bind: merged.price), discounted_price = \(bind: merged.discountedPrice),
              stock = \(bind: merged.stock), thumbnail_image_id = \(bind: merged.thumbnailImageID),
              search_text = \(bind: Self.searchText(name: merged.name, description: merged.description))
            WHERE id = \(bind: current.id) AND vendor_id = \(bind: current.vendorID) AND name = \(bind: current.name)
              AND description = \(bind: current.description) AND currency = \(bind: current.currency) AND price = \(bind: current.price)
              AND discounted_price = \(bind: current.discountedPrice) AND stock = \(bind: current.stock)
            RETURNING name, description, currency, price, discounted_price, stock, thumbnail_image_id
            """
        return try await executor.writeFirst(statement, as: ReplacedProductRow.self).map { $0.product(from: current) }
    }

    /// True when this call deleted it (its images go with it, by cascade).
    func delete(id: Int, vendorID: Int) async throws -> Bool {
        let statement: SQLStatement = "DELETE FROM market_products WHERE id = \(bind: id) AND vendor_id = \(bind: vendorID) RETURNING id"
        return try await executor.writeFirst(statement, as: SQLInt.self) != nil
    }

    // MARK: - Text

    static func fold(_ text: String) -> String { text.precomposedStringWithCanonicalMapping.lowercased() }

    static func searchText(name: String, description: String) -> String { fold(name) + "\n" + fold(description) }
}

// MARK: - Rows

/// A detail row: the product, then one image (NULLs for a product without images).
/// What an UPDATE of a product's own columns returns.
private struct ReplacedProductRow: SQLRowDecodable {
    let name: String
    let description: String
    let currency: String
    let price: Double
    let discountedPrice: Double
    let stock: Int
    let thumbnailImageID: Int?

    init(row: some SQLRow) throws {
        name = try row.string("name")
        description = try row.string("description")
        currency = try row.string("currency")
        price = try row.double("price")
        discountedPrice = try row.double("discounted_price")
        stock = try row.int("stock")
        thumbnailImageID = try row.optionalInt("thumbnail_image_id")
    }

    func product(from current: MarketProduct) -> MarketProduct {
        MarketProduct(
            id: current.id, vendorID: current.vendorID, vendorName: current.vendorName, vendorCreatedAt: current.vendorCreatedAt,
            name: name, description: description, currency: currency, price: price, discountedPrice: discountedPrice,
            stock: stock, creationKey: current.creationKey, thumbnailImageID: thumbnailImageID, createdAt: current.createdAt,
            images: current.images, vendorAccountID: current.vendorAccountID, hiddenAt: current.hiddenAt
        )
    }
}

private struct MarketProductRow: SQLRowDecodable {
    let product: MarketProduct
    let image: MarketProductImage?

    init(row: some SQLRow) throws {
        product = MarketProduct(
            id: try row.int("id"), vendorID: try row.int("vendor_id"), vendorName: try row.string("vendor_name"),
            vendorCreatedAt: try row.date("vendor_created_at"), name: try row.string("name"),
            description: try row.string("description"), currency: try row.string("currency"), price: try row.double("price"),
            discountedPrice: try row.double("discounted_price"), stock: try row.int("stock"), creationKey: try row.string("secret"),
            thumbnailImageID: try row.optionalInt("thumbnail_image_id"), createdAt: try row.date("created_at"), images: [],
            vendorAccountID: try row.int("vendor_account_id"), hiddenAt: try row.optionalDate("hidden_at")
        )
        image = try row.isNull("image_id") ? nil : MarketProductImage(
            id: try row.int("image_id"), position: try row.int("image_position"), storageKey: try row.string("image_storage_key"),
            format: MarketImageFormat(rawValue: try row.string("image_format")) ?? .jpeg, createdAt: try row.date("image_created_at")
        )
    }
}

extension MarketProductSummary: SQLRowDecodable {
    /// The columns of `SQLMarketRepository.summaryColumns`.
    init(row: some SQLRow) throws {
        self.init(
            id: try row.int("id"), vendorID: try row.int("vendor_id"), vendorName: try row.string("vendor_name"),
            name: try row.string("name"), description: try row.string("description"), currency: try row.string("currency"),
            price: try row.double("price"), discountedPrice: try row.double("discounted_price"), stock: try row.int("stock"),
            thumbnailKey: try row.optionalString("thumbnail_key"),
            thumbnailFormat: try row.optionalString("thumbnail_format").flatMap(MarketImageFormat.init(rawValue:)),
            createdAt: try row.date("created_at")
        )
    }
}

/// A search row: the total, then a product (NULLs when the page is past the end).
private struct MarketSearchRow: SQLRowDecodable {
    let total: Int
    let product: MarketProductSummary?

    init(row: some SQLRow) throws {
        total = try row.int("total")
        product = try row.isNull("id") ? nil : try MarketProductSummary(row: row)
    }
}
