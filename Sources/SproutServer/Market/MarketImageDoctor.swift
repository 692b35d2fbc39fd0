import Foundation
import NIOPosix

/// `sprout doctor`'s look at the market's images: files (or blobs) no product image row refers to, rows whose
/// files are missing, and staged uploads left in `tmp/`. With `fix`, it removes what nothing refers to and never
/// touches a row. Bounded whatever the store's size: rows and blobs are read in pages by key, the directory one
/// shard at a time, and files are looked up in the database in batches.
public struct MarketImageDoctor: Sendable {
    let executor: any SQLExecutor
    let kind: MarketImageStorageKind
    let files: FileImageStorage
    /// Files younger than this are left alone: one may be an upload that is being committed right now (its file
    /// is renamed into place just before its row commits), or another process's staged upload.
    let minimumAge: TimeInterval

    static let batch = 500
    static let examplesShown = 20

    public init(database: SproutDatabase, configuration: SproutConfiguration) {
        self.init(executor: database.executor, kind: configuration.market.imageStorage, dataDirectory: configuration.data.directory)
    }

    init(executor: any SQLExecutor, kind: MarketImageStorageKind, dataDirectory: String, minimumAge: TimeInterval = FileImageStorage.stagedFileLifetime) {
        self.executor = executor
        self.kind = kind
        files = FileImageStorage(dataDirectory: dataDirectory)
        self.minimumAge = minimumAge
    }

    public func examine(fix: Bool, now: Date = Date()) async throws -> MarketImageReport {
        var report = MarketImageReport(
            storage: kind == .files ? "files under \(files.root.path)" : "the database (market_image_blobs)", fixing: fix
        )
        switch kind {
        case .files:
            try await checkRowsAgainstFiles(&report)
            try await checkFilesAgainstRows(&report, fix: fix, now: now)
        case .database:
            try await checkRowsAgainstBlobs(&report)
            try await checkBlobsAgainstRows(&report, fix: fix)
        }
        let stale = try await files.staleStagedFiles(olderThan: minimumAge, now: now, remove: fix, limit: Self.examplesShown)
        report.add(.staleStaged, count: stale.count, examples: stale.names.map { "tmp/\($0)" }, fixed: fix)
        return report
    }

    // MARK: - Rows

    private struct ImageRow: SQLRowDecodable {
        let id: Int
        let productID: Int
        let key: String
        let format: MarketImageFormat?
        init(row: some SQLRow) throws {
            id = try row.int("id")
            productID = try row.int("product_id")
            key = try row.string("storage_key")
            format = MarketImageFormat(rawValue: try row.string("format"))
        }

        var names: [MarketImageFileName] { MarketImageFileName.pair(key: key, format: format ?? .jpeg) }
    }

    /// Every product image row, a page at a time.
    private func forEachPageOfRows(_ body: ([ImageRow]) async throws -> Void) async throws {
        var after = 0
        while true {
            let page = try await executor.read(
                "SELECT id, product_id, storage_key, format FROM market_images WHERE id > \(bind: after) ORDER BY id LIMIT \(bind: Self.batch)",
                as: ImageRow.self
            )
            guard let last = page.last else { return }
            try await body(page)
            after = last.id
        }
    }

    /// Of `rows`, those still there: a product deleted meanwhile (its rows first, then its files) is no problem.
    private func stillThere(_ rows: [ImageRow]) async throws -> [ImageRow] {
        guard !rows.isEmpty else { return [] }
        let statement: SQLStatement = "SELECT id FROM market_images WHERE id IN (\(list: rows.map(\.id)))"
        let present = Set(try await executor.read(statement, as: SQLInt.self).map(\.value))
        return rows.filter { present.contains($0.id) }
    }

    /// The formats of the images with these keys; a file is referenced when its key's row has its format.
    private func referencedFormats(of keys: some Collection<String>) async throws -> [String: String] {
        guard !keys.isEmpty else { return [:] }
        let statement: SQLStatement = "SELECT storage_key, format FROM market_images WHERE storage_key IN (\(list: keys))"
        return Dictionary(try await executor.read(statement, as: KeyAndFormat.self).map { ($0.key, $0.format) }) { first, _ in first }
    }

    private struct KeyAndFormat: SQLRowDecodable {
        let key: String
        let format: String
        init(row: some SQLRow) throws {
            key = try row.string("storage_key")
            format = try row.string("format")
        }
    }

    private func isReferenced(_ name: MarketImageFileName, by formats: [String: String]) -> Bool {
        formats[name.key] == name.format.rawValue
    }

    // MARK: - Files

    private func checkRowsAgainstFiles(_ report: inout MarketImageReport) async throws {
        let files = files
        try await forEachPageOfRows { page in
            report.imageRows += page.count
            let missing = try await NIOThreadPool.singleton.runIfActive {
                page.compactMap { row -> (ImageRow, [MarketImageFileName])? in
                    let gone = row.names.filter { !FileManager.default.fileExists(atPath: files.url(of: $0).path) }
                    return gone.isEmpty ? nil : (row, gone)
                }
            }
            let confirmed = Set(try await stillThere(missing.map(\.0)).map(\.id))
            for (row, names) in missing where confirmed.contains(row.id) {
                report.add(.missing, count: names.count, examples: names.map { "product \(row.productID), image \(row.id): \($0.key.prefix(2))/\($0)" })
            }
        }
    }

    private func checkFilesAgainstRows(_ report: inout MarketImageReport, fix: Bool, now: Date) async throws {
        let root = files.root
        let shards = try await NIOThreadPool.singleton.runIfActive { () -> [String] in
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return [] }
            return names.filter { $0.utf8.count == 2 && $0.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) } }.sorted()
        }
        let cutoff = now.timeIntervalSince1970 - minimumAge
        for shard in shards {
            let directory = root.appendingPathComponent(shard, isDirectory: true)
            // One shard's names at a time: about 1/256 of the store.
            let entries = try await NIOThreadPool.singleton.runIfActive { () -> [(name: String, isOld: Bool)] in
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                return names.sorted().compactMap { name in
                    var status = stat()
                    guard lstat(directory.appendingPathComponent(name).path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
                    return (name, Double(status.st_mtim.tv_sec) < cutoff)
                }
            }
            report.filesLookedAt += entries.count
            for start in stride(from: 0, to: entries.count, by: Self.batch) {
                let slice = entries[start..<min(start + Self.batch, entries.count)]
                var named: [(MarketImageFileName, Bool)] = []
                for entry in slice {
                    if let name = MarketImageFileName(entry.name), name.key.hasPrefix(shard) {
                        named.append((name, entry.isOld))
                    } else {
                        report.add(.unrecognised, count: 1, examples: ["\(shard)/\(entry.name)"])
                    }
                }
                let formats = try await referencedFormats(of: Set(named.map(\.0.key)))
                let orphans = named.filter { !isReferenced($0.0, by: formats) }
                let old = orphans.filter(\.1).map(\.0)
                report.add(.recentUnreferenced, count: orphans.count - old.count)
                report.add(.orphanFiles, count: old.count, examples: old.map { "\(shard)/\($0)" }, fixed: fix)
                if fix, !old.isEmpty { try await files.delete(old) }
            }
        }
    }

    // MARK: - Database

    private func checkRowsAgainstBlobs(_ report: inout MarketImageReport) async throws {
        try await forEachPageOfRows { page in
            report.imageRows += page.count
            let names = page.flatMap(\.names).map(\.description)
            let statement: SQLStatement = "SELECT key FROM market_image_blobs WHERE key IN (\(list: names))"
            let present = Set(try await executor.read(statement, as: SQLTextValue.self).map(\.value))
            let missing = page.filter { !$0.names.allSatisfy { present.contains($0.description) } }
            for row in try await stillThere(missing) {
                let gone = row.names.filter { !present.contains($0.description) }
                report.add(.missing, count: gone.count, examples: gone.map { "product \(row.productID), image \(row.id): \($0)" })
            }
        }
    }

    private func checkBlobsAgainstRows(_ report: inout MarketImageReport, fix: Bool) async throws {
        var after = ""
        while true {
            let keys = try await executor.read(
                "SELECT key FROM market_image_blobs WHERE key > \(bind: after) ORDER BY key LIMIT \(bind: Self.batch)", as: SQLTextValue.self
            ).map(\.value)
            guard let last = keys.last else { return }
            report.filesLookedAt += keys.count
            let names = keys.map { ($0, MarketImageFileName($0)) }
            let formats = try await referencedFormats(of: Set(names.compactMap { $0.1?.key }))
            // A blob whose key is no image name can never be served either.
            let orphans = names.filter { _, name in name.map { !isReferenced($0, by: formats) } ?? true }.map(\.0)
            report.add(.orphanBlobs, count: orphans.count, examples: orphans, fixed: fix)
            if fix, !orphans.isEmpty {
                try await executor.writeAll(["DELETE FROM market_image_blobs WHERE key IN (\(list: orphans))"])
            }
            after = last
        }
    }
}

/// What `MarketImageDoctor` found, and its text for a person.
public struct MarketImageReport: Sendable {
    enum Kind: CaseIterable, Sendable {
        case missing, orphanFiles, orphanBlobs, staleStaged, unrecognised, recentUnreferenced

        var label: String {
            switch self {
            case .missing: "image files missing for a product image row (rows are left as they are: delete the product, or restore the files)"
            case .orphanFiles: "image files no product image refers to, older than an hour"
            case .orphanBlobs: "image blobs no product image refers to"
            case .staleStaged: "staged uploads left in tmp/ for more than an hour"
            case .unrecognised: "files that are not image files (left as they are)"
            case .recentUnreferenced: "unreferenced image files younger than an hour, left alone (an upload may be committing)"
            }
        }

        var isProblem: Bool { self != .recentUnreferenced }
        var canBeFixed: Bool { self == .orphanFiles || self == .orphanBlobs || self == .staleStaged }
    }

    struct Finding: Sendable {
        var count = 0
        var examples: [String] = []
        var fixed = false
    }

    public let storage: String
    let fixing: Bool
    public internal(set) var imageRows = 0
    public internal(set) var filesLookedAt = 0
    var findings: [Kind: Finding] = [:]

    init(storage: String, fixing: Bool) {
        self.storage = storage
        self.fixing = fixing
    }

    mutating func add(_ kind: Kind, count: Int, examples: [String] = [], fixed: Bool = false) {
        guard count > 0 else { return }
        var finding = findings[kind] ?? Finding()
        finding.count += count
        finding.examples += examples.prefix(MarketImageDoctor.examplesShown - finding.examples.count)
        finding.fixed = fixed
        findings[kind] = finding
    }

    func count(of kind: Kind) -> Int { findings[kind]?.count ?? 0 }

    /// Problems found that are still there (with `--fix`, those it cannot fix).
    public var problemsRemaining: Int {
        findings.filter { $0.key.isProblem && !$0.value.fixed }.map(\.value.count).reduce(0, +)
    }

    public var problemsFound: Int {
        findings.filter { $0.key.isProblem }.map(\.value.count).reduce(0, +)
    }

    public var text: String {
        var lines = [
            "Market images, stored in \(storage):",
            "  looked at \(imageRows) product image rows and \(filesLookedAt) stored \(storage.hasPrefix("files") ? "files" : "blobs")",
        ]
        for kind in Kind.allCases {
            guard let finding = findings[kind] else { continue }
            let status = !kind.isProblem ? "note" : finding.fixed ? "removed" : "problem"
            lines.append("  \(status): \(finding.count) \(kind.label)")
            lines += finding.examples.map { "    \($0)" }
            if finding.count > finding.examples.count { lines.append("    … and \(finding.count - finding.examples.count) more") }
        }
        if problemsFound == 0 {
            lines.append("No problems found.")
        } else if problemsRemaining == 0 {
            lines.append("Fixed every problem found (\(problemsFound)).")
        } else {
            let hint = fixing ? "" : " (`sprout doctor --fix` removes what nothing refers to)"
            lines.append("\(problemsRemaining) problem\(problemsRemaining == 1 ? "" : "s") found\(hint).")
        }
        return lines.joined(separator: "\n")
    }
}
