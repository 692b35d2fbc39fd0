import Foundation
import Hummingbird
import NIOCore
import SproutWire

/// "Download my data": one tar archive of everything an account holds in the five apps, written to the response
/// as it is read, a page of rows (at most `pageSize`) and one image at a time, so no export is ever whole in
/// memory. JSON files of rows (`todos/page-0001.json`, …), the products' original images as uploaded, and a
/// README saying what each file is. Nothing of another account: every query is by the account's own id, and a
/// post's comments by others are not its (only their count is).
struct AccountExport: Sendable {
    let executor: any SQLExecutor
    let images: any MarketImageStorage
    let clock: WallClock
    /// Rows per JSON file.
    var pageSize = 1000

    /// The archive's file name: `sprout-export-{username}-{YYYY-MM-DD}.tar`, with only safe characters.
    static func fileName(for account: Account, at date: Date) -> String {
        let safe = account.username.unicodeScalars.map { scalar -> String in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII ? String(scalar) : "_"
        }.joined()
        return "sprout-export-\(safe)-\(StrapiTimestamp.string(from: date).prefix(10)).tar"
    }

    /// Writes the archive for `account` to `writer`.
    func write(_ account: Account, to writer: inout any ResponseBodyWriter) async throws {
        let now = clock.now
        var tar = TarStream(modified: now)
        try await writer.write(tar.file("README.txt", Data(readme(for: account, at: now).utf8)))
        try await writer.write(tar.file("account.json", try Self.json([
            "id": account.id, "username": account.username, "email": account.email, "confirmed": account.confirmed,
            "created_at": StrapiTimestamp.string(from: account.createdAt), "updated_at": StrapiTimestamp.string(from: account.updatedAt),
        ] as [String: Any])))
        for section in ExportSection.all {
            var cursor: ExportCursor = section.start
            var page = 1
            while true {
                let rows = try await executor.read(section.query(account.id, cursor, pageSize), as: ExportRow.self)
                if rows.isEmpty { break }
                let name = "\(section.folder)/page-\(String(format: "%04d", page)).json"
                try await writer.write(tar.file(name, try Self.json(rows.map { $0.fields(section.columns) })))
                if section.folder == ExportSection.images.folder {
                    for row in rows { try await writeImage(row, tar: &tar, to: &writer) }
                }
                guard rows.count == pageSize, let last = rows.last, let next = section.cursor(after: last) else { break }
                cursor = next
                page += 1
            }
        }
        try await writer.write(tar.end())
    }

    /// The original of one product image, as `market/images/{key}.{jpg|png}`.
    private func writeImage(_ row: ExportRow, tar: inout TarStream, to writer: inout any ResponseBodyWriter) async throws {
        guard let key = row.string("storage_key"), let format = row.string("format").flatMap(MarketImageFormat.init(rawValue:)) else { return }
        let name = MarketImageFileName(key: key, isThumbnail: false, format: format)
        guard let bytes = try await images.load(name) else { return }
        try await writer.write(tar.file("market/images/\(name)", Data(buffer: bytes)))
    }

    static func json(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    func readme(for account: Account, at date: Date) -> String {
        """
        Sprout — 내 데이터 / your data
        account: \(account.username) (id \(account.id)), exported \(StrapiTimestamp.string(from: date))

        Everything this account holds in Sprout's five apps. Lists are JSON arrays in pages of at most \(pageSize)
        rows (page-0001.json, page-0002.json, …); times are UTC, ISO 8601.

        account.json                 the account: username, email, when it was made
        todos/                       Todos: your own list (not the shared anonymous one)
        diary/entries/               Diary: entries, with deleted ones marked (kept for syncing devices)
        diary/versions/              Diary: earlier versions of entries, kept when one was replaced or deleted
        community/posts/             Community: your posts, with how many comments each has
        community/comments/          Community: your comments, with the post each is on
        market/vendor/               Open Market: your shop, if you have one (its secret is not included)
        market/products/             Open Market: your products
        market/images/page-*.json    Open Market: your products' images, in order, with their file names
        market/images/*.jpg|.png     Open Market: the images as uploaded (originals; thumbnails are made from them)
        board/posts/                 Board: your posts and replies

        Comments others wrote on your posts are theirs and are not included.
        """
    }
}

/// Where a page of a section starts: after an integer id, or after a text key (diary entries).
enum ExportCursor: Sendable {
    case id(Int)
    case text(String)
}

/// One kind of row in the export: its folder, its columns and how each is written, and its query.
struct ExportSection: Sendable {
    enum Kind: Sendable {
        case int, text, bool, double, date
        /// Milliseconds since 1970 (the Diary's clock), written as a date.
        case milliseconds
    }

    let folder: String
    let columns: [(String, Kind)]
    let start: ExportCursor
    /// The page after `cursor`, in key order.
    let query: @Sendable (_ accountID: Int, _ cursor: ExportCursor, _ limit: Int) -> SQLStatement
    let cursorColumn: String

    func cursor(after row: ExportRow) -> ExportCursor? {
        if case .text = start { return row.string(cursorColumn).map(ExportCursor.text) }
        return row.int(cursorColumn).map(ExportCursor.id)
    }

    private static func byID(_ folder: String, _ columns: [(String, Kind)], from: String, where owner: String) -> ExportSection {
        let list = columns.map(\.0).joined(separator: ", ")
        return ExportSection(folder: folder, columns: columns, start: .id(0), query: { account, cursor, limit in
            guard case .id(let after) = cursor else { return "SELECT 1 WHERE 1 = 0" }
            return "SELECT \(raw: list) FROM \(raw: from) WHERE \(raw: owner) = \(bind: account) AND id > \(bind: after) ORDER BY id LIMIT \(bind: limit)"
        }, cursorColumn: "id")
    }

    static let todos = byID("todos", [("id", .int), ("title", .text), ("is_done", .bool), ("created_at", .date), ("updated_at", .date)], from: "todos", where: "owner_id")

    static let diaryEntries = ExportSection(
        folder: "diary/entries",
        columns: [("entry_id", .text), ("title", .text), ("body", .text), ("created_ms", .milliseconds), ("updated_ms", .milliseconds),
                  ("deleted", .bool), ("weather_main", .text), ("weather_description", .text), ("weather_icon", .text), ("weather_temp_c", .double)],
        start: .text(""),
        query: { account, cursor, limit in
            guard case .text(let after) = cursor else { return "SELECT 1 WHERE 1 = 0" }
            return """
                SELECT entry_id, title, body, created_ms, updated_ms, deleted, weather_main, weather_description, weather_icon, weather_temp_c
                FROM diary_entries WHERE account_id = \(bind: account) AND entry_id > \(bind: after) ORDER BY entry_id LIMIT \(bind: limit)
                """
        },
        cursorColumn: "entry_id"
    )

    static let diaryVersions = byID("diary/versions", [
        ("id", .int), ("entry_id", .text), ("title", .text), ("body", .text), ("created_ms", .milliseconds), ("updated_ms", .milliseconds),
        ("replaced_ms", .milliseconds), ("reason", .text), ("weather_main", .text), ("weather_description", .text), ("weather_icon", .text),
        ("weather_temp_c", .double),
    ], from: "diary_versions", where: "account_id")

    static let posts = byID("community/posts", [("id", .int), ("text", .text), ("comment_count", .int), ("created_at", .date), ("updated_at", .date)],
                            from: "(SELECT posts.*, (SELECT count(*) FROM comments WHERE comments.post_id = posts.id) AS comment_count FROM posts) AS posts",
                            where: "user_id")

    static let comments = byID("community/comments", [("id", .int), ("post_id", .int), ("comment", .text), ("created_at", .date), ("updated_at", .date)],
                               from: "comments", where: "user_id")

    static let vendor = byID("market/vendor", [("id", .int), ("name", .text), ("identifier", .text), ("created_at", .date)],
                             from: "market_vendors", where: "account_id")

    static let products = byID("market/products", [
        ("id", .int), ("name", .text), ("description", .text), ("currency", .text), ("price", .double), ("discounted_price", .double),
        ("stock", .int), ("created_at", .date),
    ], from: "(SELECT market_products.*, market_vendors.account_id FROM market_products JOIN market_vendors ON market_vendors.id = market_products.vendor_id) AS products", where: "account_id")

    static let images = byID("market/images", [
        ("id", .int), ("product_id", .int), ("position", .int), ("file", .text), ("storage_key", .text), ("format", .text), ("byte_count", .int),
    ], from: """
        (SELECT market_images.*, market_vendors.account_id,
           market_images.storage_key || CASE market_images.format WHEN 'png' THEN '.png' ELSE '.jpg' END AS file
         FROM market_images JOIN market_products ON market_products.id = market_images.product_id
         JOIN market_vendors ON market_vendors.id = market_products.vendor_id) AS images
        """, where: "account_id")

    static let boardPosts = byID("board/posts", [
        ("id", .int), ("board_id", .int), ("parent_post_id", .int), ("title", .text), ("contents", .text), ("post_type", .text),
        ("is_anonymous", .bool), ("view_count", .int), ("created_at", .date), ("updated_at", .date),
    ], from: "board_posts", where: "account_id")

    static let all = [todos, diaryEntries, diaryVersions, posts, comments, vendor, products, images, boardPosts]

    /// Every column any section reads, with its kind (one name has one kind in every section).
    static let kinds: [String: Kind] = Dictionary(all.flatMap(\.columns), uniquingKeysWith: { first, _ in first })
}

/// A row of any section, its values read while the row is current (a row is only valid while it is being
/// decoded): every column of `ExportSection.kinds` the row has, written as its kind says.
struct ExportRow: SQLRowDecodable {
    let values: [String: any Sendable]

    init(row: some SQLRow) throws {
        var values: [String: any Sendable] = [:]
        for (name, kind) in ExportSection.kinds {
            guard let index = try? row.index(of: name) else { continue }
            if row.isNull(index) {
                values[name] = ExportNull()
                continue
            }
            values[name] = switch kind {
            case .int: try row.int(index)
            case .text: try row.string(index)
            case .bool: try row.bool(index)
            case .double: try row.double(index)
            case .date: StrapiTimestamp.string(from: try row.date(index))
            case .milliseconds: StrapiTimestamp.string(from: Date(timeIntervalSince1970: Double(try row.int(index)) / 1000))
            }
        }
        self.values = values
    }

    func int(_ name: String) -> Int? { values[name] as? Int }
    func string(_ name: String) -> String? { values[name] as? String }

    /// The section's columns as JSON values (nulls as `NSNull`), without the internal storage key.
    func fields(_ columns: [(String, ExportSection.Kind)]) -> [String: Any] {
        var fields: [String: Any] = [:]
        for (name, _) in columns where name != "storage_key" {
            if let value = values[name], !(value is ExportNull) { fields[name] = value } else { fields[name] = NSNull() }
        }
        return fields
    }
}

/// A SQL NULL among an export row's values.
struct ExportNull: Sendable {}

/// A tar archive written piece by piece to a stream: each file as its header, its bytes and the padding.
struct TarStream {
    let modified: Date

    func file(_ name: String, _ bytes: Data) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(Tar.block + Int(Tar.paddedSize(Int64(bytes.count))))
        buffer.writeBytes(try Tar.header(name: name, size: Int64(bytes.count), mode: 0o644, modified: modified))
        buffer.writeBytes(bytes)
        buffer.writeRepeatingByte(0, count: Int(Tar.paddedSize(Int64(bytes.count))) - bytes.count)
        return buffer
    }

    /// The two zero blocks that end an archive.
    func end() -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeRepeatingByte(0, count: 2 * Tar.block)
        return buffer
    }
}
