import Foundation

/// The image cache's disk tier: one file per URL in a directory of its own, named by the FNV-1a hash of the
/// URL, holding the URL on its first line and the image's bytes after it. Recency is the files' modification
/// dates (set from a clock that never repeats a value), so the least recently used order survives a restart;
/// the files are trimmed to the size bound when the store opens and whenever one is added.
///
/// Not thread-safe: `ImageCache` (an actor) owns it.
final class ImageDiskStore {
    let directory: URL
    let limit: Int
    private var index = LRUIndex<String>()
    private var lastStamp = Date.distantPast
    private let fileManager = FileManager.default
    static let fileExtension = "cache"

    /// Opens the directory (creating it), indexes its files by modification date, removes files that are not
    /// the cache's (left by an interrupted write) and trims the rest to `limit` bytes.
    init(directory: URL, limit: Int) {
        self.directory = directory
        self.limit = max(limit, 0)
        try? fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        let files = (try? fileManager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        var found: [(name: String, size: Int, date: Date)] = []
        for file in files {
            guard file.pathExtension == Self.fileExtension else {
                try? fileManager.removeItem(at: file)
                continue
            }
            let values = try? file.resourceValues(forKeys: Set(keys))
            guard values?.isRegularFile == true else { continue }
            found.append((file.deletingPathExtension().lastPathComponent, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast))
        }
        for file in found.sorted(by: { ($0.date, $0.name) < ($1.date, $1.name) }) {
            index.insert(file.name, size: file.size)
            lastStamp = max(lastStamp, file.date)
        }
        trim()
    }

    /// The bytes of all files added up.
    var totalSize: Int { index.totalSize }

    /// The cached bytes for `key` (a URL's absolute string), marked as just used; nil when absent or when the
    /// file belongs to another URL with the same hash.
    func data(for key: String) -> Data? {
        let name = Self.name(for: key)
        guard index.contains(name) else { return nil }
        guard let contents = try? Data(contentsOf: file(name)),
              let newline = contents.firstIndex(of: UInt8(ascii: "\n")),
              String(decoding: contents[contents.startIndex..<newline], as: UTF8.self) == key
        else { return nil }
        index.touch(name)
        stamp(name)
        return Data(contents[(newline + 1)...])
    }

    /// Whether a file for `key` is indexed.
    func contains(_ key: String) -> Bool {
        index.contains(Self.name(for: key))
    }

    /// Writes `data` for `key` as the most recently used file and trims the least recently used beyond the
    /// bound. Data larger than the whole bound is not written.
    func store(_ data: Data, for key: String) {
        let name = Self.name(for: key)
        var contents = Data(key.utf8)
        contents.append(UInt8(ascii: "\n"))
        contents.append(data)
        guard contents.count <= limit else { return }
        do {
            try contents.write(to: file(name), options: .atomic)
        } catch {
            return
        }
        index.insert(name, size: contents.count)
        stamp(name)
        trim()
    }

    /// Deletes every file.
    func removeAll() {
        for name in index.keysFromOldest {
            index.remove(name)
            try? fileManager.removeItem(at: file(name))
        }
    }

    private func trim() {
        for name in index.evict(toFit: limit) {
            try? fileManager.removeItem(at: file(name))
        }
    }

    /// Sets the file's modification date to a moment later than any given before, so two uses never tie.
    private func stamp(_ name: String) {
        let now = Date()
        lastStamp = now > lastStamp.addingTimeInterval(0.001) ? now : lastStamp.addingTimeInterval(0.001)
        try? fileManager.setAttributes([.modificationDate: lastStamp], ofItemAtPath: file(name).path)
    }

    private func file(_ name: String) -> URL {
        directory.appendingPathComponent(name).appendingPathExtension(Self.fileExtension)
    }

    static func name(for key: String) -> String {
        FNV1a.hex64(key)
    }
}
