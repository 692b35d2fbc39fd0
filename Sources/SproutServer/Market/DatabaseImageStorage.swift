import NIOCore

/// Image files as rows of `market_image_blobs` (BLOB on SQLite, bytea on PostgreSQL): every server process on one
/// database serves every image, with nothing shared on disk.
struct DatabaseImageStorage: MarketImageStorage {
    let executor: any SQLExecutor

    func save(_ bytes: ByteBuffer, as name: MarketImageFileName) async throws {
        let statement = SQLStatement(
            "INSERT INTO market_image_blobs (key, bytes) VALUES ($1, $2) RETURNING 1",
            .text(name.description), .bytes(Array(bytes.readableBytesView))
        )
        _ = try await executor.write(statement, as: SQLInt.self)
    }

    func load(_ name: MarketImageFileName) async throws -> ByteBuffer? {
        let statement = SQLStatement("SELECT bytes FROM market_image_blobs WHERE key = $1", .text(name.description))
        return try await executor.readFirst(statement, as: BlobRow.self).map { ByteBuffer(bytes: $0.bytes) }
    }

    func contains(_ name: MarketImageFileName) async throws -> Bool {
        try await executor.readFirst(SQLStatement("SELECT 1 FROM market_image_blobs WHERE key = $1", .text(name.description)), as: SQLInt.self) != nil
    }

    func delete(_ names: [MarketImageFileName]) async throws {
        guard !names.isEmpty else { return }
        var statement = SQLStatement(sql: "", binds: [])
        let placeholders = names.map { statement.bind(.text($0.description)) }
        statement.sql = "DELETE FROM market_image_blobs WHERE key IN (\(placeholders.joined(separator: ", "))) RETURNING 1"
        _ = try await executor.write(statement, as: SQLInt.self)
    }

    private struct BlobRow: SQLRowDecodable {
        let bytes: [UInt8]
        init(row: some SQLRow) throws { bytes = try row.bytes(0) }
    }
}
