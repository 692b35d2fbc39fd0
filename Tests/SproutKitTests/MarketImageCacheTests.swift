import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SproutKit
import Testing

/// `ImageCache`: least-recently-used eviction by bytes in memory and on disk, the disk tier across a restart, and
/// one fetch for concurrent requests of one URL.
@Suite struct MarketImageCacheTests {
    /// Serves `size` bytes of the URL's last letter for every image URL, counting fetches; can hold its answers.
    final class ImageServer: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var fetches: [String: Int] = [:]
        private let gate = AnswerGate()
        let size: Int
        let status: Int

        init(size: Int = 100, status: Int = 200) {
            self.size = size
            self.status = status
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            let url = request.url!
            lock.withLock { fetches[url.absoluteString, default: 0] += 1 }
            await gate.passThrough()
            return (Self.image(url, size: size), HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!)
        }

        static func image(_ url: URL, size: Int) -> Data {
            Data(repeating: url.lastPathComponent.utf8.first ?? 0, count: size)
        }

        func count(_ url: URL) -> Int { lock.withLock { fetches[url.absoluteString] ?? 0 } }
        var total: Int { lock.withLock { fetches.values.reduce(0, +) } }
        func hold() { gate.hold() }
        func release() { gate.release() }
    }

    /// Fails every request, as a device without a network would.
    struct Offline: HTTPTransport {
        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { throw URLError(.notConnectedToInternet) }
    }

    static func url(_ name: String) -> URL { URL(string: "http://127.0.0.1:9/market/images/\(name)")! }

    /// A file's size on disk: the URL, a newline, the image.
    static func fileSize(_ name: String, image: Int = 100) -> Int { url(name).absoluteString.utf8.count + 1 + image }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-\(UUID().uuidString)")
    }

    static func files(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// Which of the images `names` the memory tier holds.
    static func inMemory(_ cache: ImageCache, _ names: String...) async -> [String] {
        var held: [String] = []
        for name in names where await cache.isInMemory(url(name)) { held.append(name) }
        return held
    }

    /// Which of the images `names` the disk tier holds.
    static func onDisk(_ cache: ImageCache, _ names: String...) async -> [String] {
        var held: [String] = []
        for name in names where await cache.isOnDisk(url(name)) { held.append(name) }
        return held
    }

    @Test func memoryEvictsTheLeastRecentlyUsedByBytes() async throws {
        let server = ImageServer()
        let cache = ImageCache(transport: server, directory: nil, memoryLimit: 250)
        #expect(try await cache.data(for: Self.url("a")) == ImageServer.image(Self.url("a"), size: 100))
        _ = try await cache.data(for: Self.url("b"))
        _ = try await cache.data(for: Self.url("a"))
        #expect(server.count(Self.url("a")) == 1)
        _ = try await cache.data(for: Self.url("c"))
        #expect(await Self.inMemory(cache, "a", "b", "c") == ["a", "c"])
        #expect(await cache.memoryBytes == 200)
        #expect(await cache.diskBytes == 0)
        _ = try await cache.data(for: Self.url("b"))
        #expect(server.count(Self.url("b")) == 2)
        #expect(await Self.inMemory(cache, "a", "b", "c") == ["b", "c"])
    }

    @Test func anImageLargerThanTheMemoryBoundIsServedButNotKept() async throws {
        let cache = ImageCache(transport: ImageServer(size: 300), directory: nil, memoryLimit: 250)
        #expect(try await cache.data(for: Self.url("big")).count == 300)
        #expect(await cache.memoryBytes == 0)
        #expect(await Self.inMemory(cache, "big").isEmpty)
    }

    @Test func diskEvictsTheLeastRecentlyUsedByBytes() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ImageServer()
        // No memory tier: every read after the first is a disk read.
        let cache = ImageCache(transport: server, directory: directory, memoryLimit: 0, diskLimit: 3 * Self.fileSize("a"))
        for name in ["a", "b", "c"] { _ = try await cache.data(for: Self.url(name)) }
        #expect(await cache.diskBytes == 3 * Self.fileSize("a") && Self.files(in: directory).count == 3)
        #expect(try await cache.data(for: Self.url("a")) == ImageServer.image(Self.url("a"), size: 100))
        #expect(server.count(Self.url("a")) == 1)
        _ = try await cache.data(for: Self.url("d"))
        #expect(await Self.onDisk(cache, "a", "b", "c", "d") == ["a", "c", "d"])
        #expect(Self.files(in: directory).count == 3)
        #expect(Self.files(in: directory).allSatisfy { $0.count == 22 && $0.hasSuffix(".cache") && $0.dropLast(6).allSatisfy(\.isHexDigit) })
    }

    @Test func theDiskTierSurvivesARestartInItsOrder() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = ImageServer()
        let first = ImageCache(transport: server, directory: directory, memoryLimit: 0, diskLimit: 10_000)
        for name in ["a", "b", "c"] { _ = try await first.data(for: Self.url(name)) }
        _ = try await first.data(for: Self.url("a"))
        // Left by a write that was interrupted: removed when the cache opens.
        try Data("half".utf8).write(to: directory.appendingPathComponent("0123456789abcdef.cache.tmp"))

        // The same directory, no network: the images come from disk.
        let restarted = ImageCache(transport: Offline(), directory: directory, memoryLimit: 1000, diskLimit: 10_000)
        for name in ["a", "b", "c"] {
            #expect(try await restarted.data(for: Self.url(name)) == ImageServer.image(Self.url(name), size: 100))
        }
        #expect(await Self.inMemory(restarted, "a", "b", "c") == ["a", "b", "c"])
        #expect(Self.files(in: directory).count == 3)
        await #expect { try await restarted.data(for: Self.url("z")) } throws: {
            if case .transport = $0 as? APIError { true } else { false }
        }

        // Opened with a smaller bound, the directory is trimmed to it, least recently used first.
        let directory2 = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory2) }
        let original = ImageCache(transport: server, directory: directory2, memoryLimit: 0, diskLimit: 10_000)
        for name in ["a", "b", "c"] { _ = try await original.data(for: Self.url(name)) }
        _ = try await original.data(for: Self.url("a"))
        let smaller = ImageCache(transport: Offline(), directory: directory2, memoryLimit: 0, diskLimit: 2 * Self.fileSize("a"))
        #expect(await smaller.diskBytes == 2 * Self.fileSize("a"))
        #expect(await Self.onDisk(smaller, "a", "b", "c") == ["a", "c"])
        #expect(Self.files(in: directory2).count == 2)
    }

    @Test func concurrentRequestsForOneURLShareOneFetch() async throws {
        let server = ImageServer()
        server.hold()
        let cache = ImageCache(transport: server, directory: nil)
        let url = Self.url("shared")
        let results = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<5 { group.addTask { try await cache.data(for: url) } }
            try await eventually { server.total > 0 }
            try await Task.sleep(for: .milliseconds(50))
            server.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 5 && Set(results) == [ImageServer.image(url, size: 100)])
        #expect(server.count(url) == 1)
        // Another URL is fetched on its own.
        _ = try await cache.data(for: Self.url("other"))
        #expect(server.total == 2)
    }

    @Test func aRefusedImageIsNotKept() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ImageCache(transport: ImageServer(status: 404), directory: directory)
        await #expect { try await cache.data(for: Self.url("gone")) } throws: { ($0 as? APIError)?.statusCode == 404 }
        #expect(await cache.cachedData(for: Self.url("gone")) == nil)
        #expect(await cache.diskBytes == 0)
    }

    @Test func removeAllEmptiesBothTiers() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ImageCache(transport: ImageServer(), directory: directory)
        _ = try await cache.data(for: Self.url("a"))
        await cache.removeAllFromMemory()
        #expect(await cache.memoryBytes == 0)
        #expect(await cache.cachedData(for: Self.url("a")) != nil)
        await cache.removeAll()
        #expect(await cache.memoryBytes == 0)
        #expect(await cache.diskBytes == 0)
        #expect(Self.files(in: directory).isEmpty)
    }
}
