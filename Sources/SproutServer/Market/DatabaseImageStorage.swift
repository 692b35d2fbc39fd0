import NIOCore

/// Image files as rows of `market_image_blobs` (BLOB on SQLite, bytea on PostgreSQL): every server process on one
/// database serves every image, with nothing shared on disk.
struct DatabaseImageStorage: MarketImageStorage {
    let executor: any SQLExecutor

    /// Held in memory until the product's transaction: at most `maximumImages` originals and their thumbnails
    /// per request, as many as `register` already holds before `params`.
    func stage(_ bytes: ByteBuffer, as name: MarketImageFileName) async throws -> StagedMarketImageFile {
        StagedMarketImageFile(name: name, content: .bytes(bytes))
    }

    /// The blobs are inserted in the same transaction as the product and its image rows: both or neither.
    func placement(of staged: [StagedMarketImageFile]) async throws -> MarketImagePlacement {
        let values = staged.compactMap { file -> SQLStatement? in
            guard case .bytes(let bytes) = file.content else { return nil }
            return "(\(bind: file.name.description), \(bind: Array(bytes.readableBytesView)))"
        }
        guard !values.isEmpty else { return .nothing }
        let statement: SQLStatement = "INSERT INTO market_image_blobs (key, bytes) VALUES \(.joined(values, separator: ", "))"
        return MarketImagePlacement(statements: [statement], beforeCommit: {})
    }

    func discard(_ staged: [StagedMarketImageFile]) async {}

    func load(_ name: MarketImageFileName) async throws -> ByteBuffer? {
        let statement: SQLStatement = "SELECT bytes FROM market_image_blobs WHERE key = \(bind: name.description)"
        return try await executor.readFirst(statement, as: BlobRow.self).map { ByteBuffer(bytes: $0.bytes) }
    }

    func contains(_ name: MarketImageFileName) async throws -> Bool {
        try await executor.readFirst("SELECT 1 FROM market_image_blobs WHERE key = \(bind: name.description)", as: SQLInt.self) != nil
    }

    func delete(_ names: [MarketImageFileName]) async throws {
        guard !names.isEmpty else { return }
        let statement: SQLStatement = "DELETE FROM market_image_blobs WHERE key IN (\(list: names.map(\.description))) RETURNING 1"
        _ = try await executor.write(statement, as: SQLInt.self)
    }

    private struct BlobRow: SQLRowDecodable {
        let bytes: [UInt8]
        init(row: some SQLRow) throws { bytes = try row.bytes("bytes") }
    }
}
