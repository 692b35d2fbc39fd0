import Foundation

/// Where the web app's templates, scripts and stylesheet sit in the resource bundle: one folder per service, named
/// for its slug (`Web/Market/market` → `market`), plus `site` for what every page shares. SwiftPM copies a folder
/// under its last name only, so the names must differ; inside them, file names are one namespace (templates by
/// name, static files under `/static/{name}`), and a name used twice fails at start.
enum WebResources {
    static let folders = ["site", "account", "todos", "diary", "community", "market", "board"]

    /// The folders in the SproutServer bundle. They are part of the build, so a missing one is a broken install.
    static func bundled() throws -> [URL] {
        try folders.map { name in
            guard let url = Bundle.module.url(forResource: name, withExtension: nil) else { throw CocoaError(.fileNoSuchFile) }
            return url
        }
    }

    /// The files of `directories` (not their subfolders), by name. Two files of one name are an error.
    static func files(in directories: [URL]) throws -> [(name: String, url: URL)] {
        var seen: [String: URL] = [:]
        for directory in directories {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let url = directory.appendingPathComponent(name)
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                if let other = seen[name] { throw WebResourceError.duplicate(name, url, other) }
                seen[name] = url
            }
        }
        return seen.sorted { $0.key < $1.key }.map { (name: $0.key, url: $0.value) }
    }
}

enum WebResourceError: Error {
    case duplicate(String, URL, URL)
}
