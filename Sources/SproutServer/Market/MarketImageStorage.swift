import NIOCore

/// Where image files live. Two implementations: files under the data directory (`FileImageStorage`, the
/// default) and the database itself (`DatabaseImageStorage`), which lets several `sprout serve` processes on one
/// PostgreSQL serve every image. `MARKET_IMAGE_STORAGE=files|database` picks one.
///
/// An upload's files are first staged, where nothing serves them and no row refers to them, and are stored only
/// by the transaction that inserts their rows (`placement`): a refused upload, or a crash before that
/// transaction, leaves nothing in place (docs/images.md, "Staging").
protocol MarketImageStorage: Sendable {
    /// Keeps one file of an upload aside until `placement` stores it.
    func stage(_ bytes: ByteBuffer, as name: MarketImageFileName) async throws -> StagedMarketImageFile
    /// Keeps `bytes`, which `staged` already holds, aside under another name (an original that is its own
    /// thumbnail), without writing them again where the storage can.
    func stage(_ bytes: ByteBuffer, as name: MarketImageFileName, sameAs staged: StagedMarketImageFile) async throws -> StagedMarketImageFile
    /// What stores staged files as part of the transaction that inserts the rows naming them, once whatever can
    /// be done before that transaction is done (file storage: the files are on disk).
    func placement(of staged: [StagedMarketImageFile]) async throws -> MarketImagePlacement
    /// Removes staged files that were never placed; what is gone already is no error, and neither is a failure
    /// (the sweep at start and `sprout doctor` find what is left).
    func discard(_ staged: [StagedMarketImageFile]) async
    /// Nil when no such file is stored.
    func load(_ name: MarketImageFileName) async throws -> ByteBuffer?
    /// Whether the file is stored, without reading it (a conditional request's 304 needs only that).
    func contains(_ name: MarketImageFileName) async throws -> Bool
    /// Missing files are no error.
    func delete(_ names: [MarketImageFileName]) async throws
}

extension MarketImageStorage {
    func stage(_ bytes: ByteBuffer, as name: MarketImageFileName, sameAs staged: StagedMarketImageFile) async throws -> StagedMarketImageFile {
        try await stage(bytes, as: name)
    }

    /// An upload's original and its thumbnail (the original again, where it is its own), staged; both or neither.
    func stage(_ original: ByteBuffer, thumbnail: ProcessedMarketImage.Thumbnail, as image: StoredMarketImage) async throws -> [StagedMarketImageFile] {
        let stagedOriginal = try await stage(original, as: image.original)
        do {
            switch thumbnail {
            case .original: return [stagedOriginal, try await stage(original, as: image.thumbnail, sameAs: stagedOriginal)]
            case .encoded(let bytes): return [stagedOriginal, try await stage(bytes, as: image.thumbnail)]
            }
        } catch {
            await discard([stagedOriginal])
            throw error
        }
    }
}

/// Which storage `MARKET_IMAGE_STORAGE` chose.
public enum MarketImageStorageKind: String, Sendable, CaseIterable {
    case files
    case database
}

/// The name of one stored file: `{32 hex}.{jpg|png}` for an original, `{32 hex}_thumb.{jpg|png}` for its
/// thumbnail. Only names of this form exist, so a request path can never name anything else (no traversal):
/// the name is built from a random key Sprout made, never from the uploaded file's name.
struct MarketImageFileName: Sendable, Hashable, CustomStringConvertible {
    let key: String
    let isThumbnail: Bool
    let format: MarketImageFormat

    init(key: String, isThumbnail: Bool, format: MarketImageFormat) {
        self.key = key
        self.isThumbnail = isThumbnail
        self.format = format
    }

    /// Parses a requested name; nil for anything that is not exactly a stored-file name.
    init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 36, utf8.prefix(32).allSatisfy(Self.isLowercaseHex) else { return nil }
        let rest = String(decoding: utf8.dropFirst(32), as: UTF8.self)
        switch rest {
        case ".jpg": self.init(key: String(decoding: utf8.prefix(32), as: UTF8.self), isThumbnail: false, format: .jpeg)
        case ".png": self.init(key: String(decoding: utf8.prefix(32), as: UTF8.self), isThumbnail: false, format: .png)
        case "_thumb.jpg": self.init(key: String(decoding: utf8.prefix(32), as: UTF8.self), isThumbnail: true, format: .jpeg)
        case "_thumb.png": self.init(key: String(decoding: utf8.prefix(32), as: UTF8.self), isThumbnail: true, format: .png)
        default: return nil
        }
    }

    var description: String { key + (isThumbnail ? "_thumb." : ".") + format.fileExtension }

    /// An image's two files: the original and its thumbnail.
    static func pair(key: String, format: MarketImageFormat) -> [MarketImageFileName] {
        [MarketImageFileName(key: key, isThumbnail: false, format: format), MarketImageFileName(key: key, isThumbnail: true, format: format)]
    }

    /// A fresh random key: 128 bits, lowercase hex.
    static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    private static func isLowercaseHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}

extension MarketImageFileName {
    /// The file names (originals and thumbnails) of the images of the products `condition` selects (SQL over
    /// `market_products`), read before those products are deleted so their files can go after the commit.
    static func ofProducts(where condition: SQLStatement, executor: any SQLExecutor) async throws -> [MarketImageFileName] {
        try await executor.read(
            """
            SELECT market_images.storage_key, market_images.format FROM market_images
            JOIN market_products ON market_products.id = market_images.product_id WHERE \(condition)
            """,
            as: StoredImageRow.self
        ).flatMap { pair(key: $0.key, format: $0.format) }
    }

    private struct StoredImageRow: SQLRowDecodable {
        let key: String
        let format: MarketImageFormat

        init(row: some SQLRow) throws {
            key = try row.string("storage_key")
            format = MarketImageFormat(rawValue: try row.string("format")) ?? .jpeg
        }
    }
}
