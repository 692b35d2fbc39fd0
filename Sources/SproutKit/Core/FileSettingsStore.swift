import Foundation

/// Settings in a JSON file (`{"key": "value"}`), read once when the store is made and rewritten whole, atomically,
/// on every change. An unreadable or missing file is no settings: they are preferences, not data, and the next
/// change writes a good file.
public final class FileSettingsStore: SettingsStore, @unchecked Sendable {
    /// Where the file is.
    public let url: URL
    // Every access to `values` holds `lock`; so does every write of the file, so two changes cannot interleave.
    private let lock = NSLock()
    private var values: [String: String]

    /// A store over the file at `url`; the file and its directory are created on the first change.
    public init(url: URL) {
        self.url = url
        values = (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
    }

    /// The value under `key`.
    public func string(forKey key: String) -> String? {
        lock.withLock { values[key] }
    }

    /// Stores or removes the value under `key` and writes the file. A file that cannot be written leaves the
    /// value changed for this launch only.
    public func set(_ value: String?, forKey key: String) {
        lock.withLock {
            guard values[key] != value else { return }
            values[key] = value
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let data = try? encoder.encode(values) else { return }
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? data.write(to: url, options: .atomic)
        }
    }
}
