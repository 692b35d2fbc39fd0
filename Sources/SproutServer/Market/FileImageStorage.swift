import Foundation
import NIOCore
import NIOPosix

/// Image files under `{data directory}/market-images/{first two hex digits}/`. Writes go to a temporary file that
/// is renamed into place, so a reader never sees half a file; all file work runs on NIO's thread pool.
struct FileImageStorage: MarketImageStorage {
    let root: URL

    init(dataDirectory: String) {
        root = URL(fileURLWithPath: dataDirectory).appendingPathComponent("market-images", isDirectory: true)
    }

    func save(_ bytes: ByteBuffer, as name: MarketImageFileName) async throws {
        let url = url(of: name)
        let dataDirectory = root.deletingLastPathComponent()
        try await NIOThreadPool.singleton.runIfActive {
            try PrivateDirectory.ensure(dataDirectory)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes.readableBytesView).write(to: url, options: .atomic)
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

    private func url(of name: MarketImageFileName) -> URL {
        root.appendingPathComponent(String(name.key.prefix(2)), isDirectory: true).appendingPathComponent(name.description)
    }
}
