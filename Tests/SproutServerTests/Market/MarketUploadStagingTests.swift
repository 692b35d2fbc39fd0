import Foundation
import Testing
import NIOCore
@testable import SproutServer

/// Security review, issue 25 point 14: an upload's files were written into place before its product was inserted,
/// so a crash in between left them for ever. They are staged under `market-images/tmp/` (or held for the
/// product's own transaction, on database storage) and placed only by the transaction that inserts their rows.
@Suite struct MarketUploadStagingTests {
    static let storages: [MarketImageStorageKind] = [.files, .database]

    @Test func aSuccessfulUploadsFilesAreInPlaceTheOwnersAloneAndNothingStaysStaged() async throws {
        let dataDirectory = Self.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        try await withTestApp(configure: { $0.data.directory = dataDirectory }) { client, _ in
            let vendor = try await client.makeVendor("placed")
            let product = try await client.registerProduct(as: vendor, images: [try TestImages.jpeg(width: 90, height: 60), try TestImages.png(width: 30, height: 30)])
            let keys = (product["images"]?.array ?? []).compactMap { $0["url"]?.string.flatMap { URL(string: $0)?.lastPathComponent.prefix(32) } }
            #expect(keys.count == 2)
            let placed = Self.files(in: dataDirectory + "/market-images").filter { !$0.hasPrefix("tmp/") }
            #expect(placed.count == 4 && keys.allSatisfy { key in placed.filter { $0.contains(key) }.count == 2 }, "\(placed)")
            for file in placed {
                // Whatever the process's umask (the tests' is 022): uploads are the server's alone.
                #expect(try Self.mode(of: dataDirectory + "/market-images/" + file) == 0o600, "\(file)")
            }
            #expect(Self.files(in: dataDirectory + "/market-images/tmp").isEmpty)
        }
    }

    /// While the insert waits, a crash would leave only what the sweep at start removes: nothing in place, no
    /// blob. When the insert then fails, nothing is left at all.
    @Test(arguments: storages)
    func untilTheInsertCommitsTheFilesAreOnlyStagedAndAFailedInsertLeavesNothing(storage: MarketImageStorageKind) async throws {
        let dataDirectory = Self.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: dataDirectory) }
        try await withTestApp(configure: { $0.market.imageStorage = storage; $0.data.directory = dataDirectory }) { client, database in
            let vendor = try await client.makeVendor("staged")
            let hold = try await ProductInsertHold.install(on: database)
            let images = [try TestImages.jpeg(width: 90, height: 60), try TestImages.png(width: 30, height: 30)]
            let params = MarketUploadAbuseTests.params(vendor)
            let upload = Task {
                try await client.register(parts: [.params(params), .image(images[0]), .image(images[1], filename: "b.png", contentType: "image/png")], identifier: vendor.identifier)
            }
            do {
                try await hold.waitForAnInsert()
            } catch {
                try? await hold.release()
                throw error
            }
            let root = dataDirectory + "/market-images"
            #expect(Self.files(in: root).filter { !$0.hasPrefix("tmp/") }.isEmpty, "placed before the insert: \(Self.files(in: root))")
            #expect(try await database.marketCount("market_image_blobs") == 0)
            if storage == .files {
                #expect(Self.files(in: root + "/tmp").count == 4, "\(Self.files(in: root))")
            }
            try await hold.release()
            let response = try await upload.value
            #expect(response.status == .internalServerError, "\(response.status) \(response.text)")
            #expect(Self.files(in: root).isEmpty, "left behind: \(Self.files(in: root))")
            #expect(try await database.marketCount("market_products") == 0)
            #expect(try await database.marketCount("market_images") == 0)
            #expect(try await database.marketCount("market_image_blobs") == 0)
        }
    }

    /// Before the transaction that names them begins, an upload's staged pictures are on disk (a crash otherwise
    /// left committed products with empty images) and out of the page cache (20 GB of pictures pushed the
    /// database's pages out of it): the original, its linked thumbnail and an encoded thumbnail alike. The kernel
    /// drops only clean pages, so none resident means both. Not where the cache is the storage (tmpfs).
    @Test func anUploadsStagedFilesAreOnDiskAndOutOfThePageCacheBeforeItsTransaction() async throws {
        let directory = Self.temporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard try Self.fileSystemType(of: directory) != "tmpfs" else { return }

        let storage = FileImageStorage(dataDirectory: directory)
        let size = 256 * 1024
        let key = MarketImageFileName.randomKey()
        let original = ByteBuffer(repeating: 0x5A, count: size)
        let linked = try await storage.stage(original, thumbnail: .original, as: StoredMarketImage(storageKey: key, format: .png, byteCount: size))
        let encoded = try await storage.stage(original, thumbnail: .encoded(ByteBuffer(repeating: 0x33, count: size)),
                                              as: StoredMarketImage(storageKey: MarketImageFileName.randomKey(), format: .jpeg, byteCount: size))
        let staged = linked + encoded
        _ = try await storage.placement(of: staged)
        for file in staged {
            guard case .temporaryFile(let url) = file.content else { Issue.record("not staged as a file"); continue }
            #expect(try Self.residentPages(of: url.path, size: size) == 0, "\(file.name)")
        }
        await storage.discard(staged)
    }

    /// The type of the file system `path` is on, from the longest mount point above it in `/proc/mounts`.
    static func fileSystemType(of path: String) throws -> String? {
        let mounts = try String(contentsOfFile: "/proc/mounts", encoding: .utf8)
        let candidates = mounts.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { fields in
            fields.count > 2 && (path == fields[1] || path.hasPrefix(fields[1] == "/" ? "/" : fields[1] + "/"))
        }
        return candidates.max { $0[1].count < $1[1].count }?[2]
    }

    /// How many of the file's pages are in the page cache (`mincore` over a mapping of it).
    static func residentPages(of path: String, size: Int) throws -> Int {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw PosixFile.Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else {
            throw PosixFile.Failure(operation: "mmap", path: path, code: errno)
        }
        defer { munmap(mapping, size) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: (size + pageSize - 1) / pageSize)
        guard mincore(mapping, size, &resident) == 0 else { throw PosixFile.Failure(operation: "mincore", path: path, code: errno) }
        return resident.filter { $0 & 1 == 1 }.count
    }

    static func temporaryDataDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sprout-staging-\(UUID().uuidString)").path
    }

    /// Regular files under `directory`, as paths relative to it.
    static func files(in directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }

    static func mode(of path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }
}
