import Foundation
import NIOCore
import NIOPosix

/// Image files under `{data directory}/market-images/{first two hex digits}/`. An upload's files are written to
/// `market-images/tmp/` first (new files, 0600, unique names) and renamed into place inside the transaction that
/// inserts their rows, just before COMMIT (`placement`): a rename within one file system is atomic, so a reader
/// never sees half a file, and the order means a crash can leave an unreferenced file but never a committed row
/// whose file is not there. For that the files' bytes are synced to disk before the transaction begins and their new
/// names before COMMIT: the database's own sync covers neither. All file work runs on NIO's thread pool, the
/// file-sync pool or the database's writer thread.
struct FileImageStorage: MarketImageStorage {
    let root: URL

    init(dataDirectory: String) {
        root = URL(fileURLWithPath: dataDirectory).appendingPathComponent("market-images", isDirectory: true)
    }

    /// Where uploads are staged; on the same file system as the images, so that placing them is a rename.
    var staging: URL { root.appendingPathComponent("tmp", isDirectory: true) }

    func stage(_ bytes: ByteBuffer, as name: MarketImageFileName) async throws -> StagedMarketImageFile {
        let temporary = stagingURL(for: name)
        let (dataDirectory, staging, shard) = (root.deletingLastPathComponent(), staging, url(of: name).deletingLastPathComponent())
        try await NIOThreadPool.singleton.runIfActive {
            try PrivateDirectory.ensure(dataDirectory)
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            // Made now, so that placing the file needs nothing but the rename.
            try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
            try PosixFile.writeNew(bytes, to: temporary.path)
        }
        return StagedMarketImageFile(name: name, content: .temporaryFile(temporary))
    }

    /// A second link to the staged file: writing the same bytes again was half of an upload's CPU (`perf`: the
    /// kernel's copy into the page cache) once small PNGs became their own thumbnails. Where the file system has no
    /// hard links, the bytes are written again.
    func stage(_ bytes: ByteBuffer, as name: MarketImageFileName, sameAs staged: StagedMarketImageFile) async throws -> StagedMarketImageFile {
        guard case .temporaryFile(let existing) = staged.content else { return try await stage(bytes, as: name) }
        let temporary = stagingURL(for: name)
        let linked = try await NIOThreadPool.singleton.runIfActive { PosixFile.link(existing.path, to: temporary.path) }
        guard linked else { return try await stage(bytes, as: name) }
        return StagedMarketImageFile(name: name, content: .temporaryFile(temporary))
    }

    /// Unique even if two processes share the directory: the name's own random key and 64 more random bits.
    private func stagingURL(for name: MarketImageFileName) -> URL {
        staging.appendingPathComponent("\(name).\(MarketImageFileName.randomKey().prefix(16)).part")
    }

    /// The upload's files are synced together, off the database's writer and off NIO's pool (picture reads), before
    /// the transaction: one wait for all of them instead of one per file as each was written. Measured on register
    /// with three pictures: docs/benchmarks.md, "Growth" (an upload's files synced together).
    func placement(of staged: [StagedMarketImageFile]) async throws -> MarketImagePlacement {
        let moves = staged.compactMap { file -> (from: String, to: String)? in
            guard case .temporaryFile(let temporary) = file.content else { return nil }
            return (temporary.path, url(of: file.name).path)
        }
        let paths = moves.map(\.from)
        if !paths.isEmpty { try await WorkPools.fileSyncs.runIfActive { try PosixFile.syncAndEvict(paths) } }
        let directories = Set(moves.map { ($0.to as NSString).deletingLastPathComponent }).sorted()
        return MarketImagePlacement(statements: []) {
            var placed: [String] = []
            do {
                for move in moves {
                    try PosixFile.rename(move.from, to: move.to)
                    placed.append(move.to)
                }
                for directory in directories { try PosixFile.syncDirectory(directory) }
            } catch {
                // The transaction is rolled back: nothing of this upload may stay in place.
                for path in placed { PosixFile.removeIfPresent(path) }
                throw error
            }
        }
    }

    func discard(_ staged: [StagedMarketImageFile]) async {
        let paths = staged.compactMap { file -> String? in
            guard case .temporaryFile(let temporary) = file.content else { return nil }
            return temporary.path
        }
        guard !paths.isEmpty else { return }
        try? await NIOThreadPool.singleton.runIfActive {
            for path in paths { PosixFile.removeIfPresent(path) }
        }
    }

    func load(_ name: MarketImageFileName) async throws -> ByteBuffer? {
        let url = url(of: name)
        return try await NIOThreadPool.singleton.runIfActive {
            do {
                return ByteBuffer(data: try Data(contentsOf: url))
            } catch CocoaError.fileReadNoSuchFile {
                return nil
            }
        }
    }

    func contains(_ name: MarketImageFileName) async throws -> Bool {
        let path = url(of: name).path
        return try await NIOThreadPool.singleton.runIfActive { FileManager.default.fileExists(atPath: path) }
    }

    func delete(_ names: [MarketImageFileName]) async throws {
        let urls = names.map(url(of:))
        try await NIOThreadPool.singleton.runIfActive {
            for url in urls {
                do {
                    try FileManager.default.removeItem(at: url)
                } catch CocoaError.fileNoSuchFile {
                    continue
                }
            }
        }
    }

    func url(of name: MarketImageFileName) -> URL {
        root.appendingPathComponent(String(name.key.prefix(2)), isDirectory: true).appendingPathComponent(name.description)
    }
}
