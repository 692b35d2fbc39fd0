import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Product images by URL, in memory and on disk, each tier bounded in bytes and evicting the least recently
/// used image first (the apps kept an `NSCache` keyed by URL; this also survives a restart).
///
/// `data(for:)` answers from memory, then from disk (bringing the image back into memory), and otherwise
/// fetches it through the transport and keeps it in both tiers. Requests for one URL made while it is being
/// fetched share that one fetch. An image larger than a tier's whole bound is not kept in that tier.
public actor ImageCache {
    /// The memory tier's bound, in bytes.
    public let memoryLimit: Int
    /// The disk tier's bound, in bytes (0 without a directory).
    public var diskLimit: Int { disk?.limit ?? 0 }

    private let transport: any HTTPTransport
    private var memory: [String: Data] = [:]
    private var memoryIndex = LRUIndex<String>()
    private let disk: ImageDiskStore?
    private var inFlight: [String: Task<Result<Data, APIError>, Never>] = [:]

    /// - Parameters:
    ///   - transport: how images are fetched (no token is sent with them).
    ///   - directory: a directory of the cache's own for the disk tier (it removes files it does not recognise);
    ///     nil keeps images in memory only. The directory is trimmed to `diskLimit` when the cache is made.
    ///   - memoryLimit: the memory tier's bound in bytes.
    ///   - diskLimit: the disk tier's bound in bytes.
    public init(
        transport: any HTTPTransport = URLSessionTransport(), directory: URL?, memoryLimit: Int = 32 * 1024 * 1024,
        diskLimit: Int = 128 * 1024 * 1024
    ) {
        self.transport = transport
        self.memoryLimit = max(memoryLimit, 0)
        disk = directory.map { ImageDiskStore(directory: $0, limit: diskLimit) }
    }

    /// The image at `url`: from memory, from disk, or fetched (and kept).
    /// - Throws: `APIError.transport` without an answer, `.status` for a non-2xx answer (nothing is kept).
    public func data(for url: URL) async throws(APIError) -> Data {
        let key = url.absoluteString
        if let data = cachedData(forKey: key) { return data }
        if let running = inFlight[key] { return try await running.value.get() }
        let task = Task { await self.fetch(url, key: key) }
        inFlight[key] = task
        let result = await task.value
        inFlight[key] = nil
        return try result.get()
    }

    /// The image at `url` if either tier has it; nothing is fetched.
    public func cachedData(for url: URL) -> Data? {
        cachedData(forKey: url.absoluteString)
    }

    /// Whether the memory tier holds the image at `url`.
    public func isInMemory(_ url: URL) -> Bool { memory[url.absoluteString] != nil }

    /// Whether the disk tier holds the image at `url`.
    public func isOnDisk(_ url: URL) -> Bool { disk?.contains(url.absoluteString) ?? false }

    /// The bytes the memory tier holds.
    public var memoryBytes: Int { memoryIndex.totalSize }

    /// The bytes the disk tier's files take (each file also holds its URL).
    public var diskBytes: Int { disk?.totalSize ?? 0 }

    /// Forgets the memory tier (as an app does on a memory warning); the disk tier stays.
    public func removeAllFromMemory() {
        memory = [:]
        memoryIndex = LRUIndex()
    }

    /// Forgets every image in both tiers.
    public func removeAll() {
        removeAllFromMemory()
        disk?.removeAll()
    }

    // MARK: Helpers

    private func cachedData(forKey key: String) -> Data? {
        if let data = memory[key] {
            memoryIndex.touch(key)
            return data
        }
        guard let data = disk?.data(for: key) else { return nil }
        keepInMemory(data, for: key)
        return data
    }

    private func fetch(_ url: URL, key: String) async -> Result<Data, APIError> {
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(URLRequest(url: url))
        } catch {
            return .failure(.transport(underlying: SendableError(error)))
        }
        guard (200..<300).contains(response.statusCode) else {
            return .failure(.status(code: response.statusCode, message: nil, fieldErrors: [:], body: data))
        }
        keepInMemory(data, for: key)
        disk?.store(data, for: key)
        return .success(data)
    }

    private func keepInMemory(_ data: Data, for key: String) {
        guard data.count <= memoryLimit else { return }
        memory[key] = data
        memoryIndex.insert(key, size: data.count)
        for evicted in memoryIndex.evict(toFit: memoryLimit) {
            memory[evicted] = nil
        }
    }
}
