/// The web app's templates, scripts and stylesheet, built into the binary (Plugins/EmbedResources): one folder per
/// service, named for its slug (`Web/Market/market` → `market`), plus `site` for what every page shares. Embedded
/// folders are known by their last name only, so the names must differ; inside them, file names are one namespace
/// (templates by name, static files under `/static/{name}`), and a name used twice fails at start.
enum WebResources {
    static let folders = ["site", "account", "todos", "diary", "community", "market", "board", "admin"]

    /// The folders built into the binary. They are part of the build, so a missing one is a broken build.
    static func embedded() throws -> [WebFolder] {
        try folders.map { name in
            guard let files = EmbeddedResources.folders[name] else { throw WebResourceError.missingFolder(name) }
            return WebFolder(name: name, files: files)
        }
    }

    /// The files of `folders`, by name. Two files of one name are an error.
    static func files(in folders: [WebFolder]) throws -> [EmbeddedResources.File] {
        var seen: [String: (file: EmbeddedResources.File, folder: String)] = [:]
        for folder in folders {
            for file in folder.files {
                if let other = seen[file.name] { throw WebResourceError.duplicate(file.name, other.folder, folder.name) }
                seen[file.name] = (file, folder.name)
            }
        }
        return seen.values.map(\.file).sorted { $0.name < $1.name }
    }
}

/// One web folder's files.
struct WebFolder: Sendable {
    let name: String
    let files: [EmbeddedResources.File]
}

enum WebResourceError: Error {
    /// A file name (first) in two folders (second and third).
    case duplicate(String, String, String)
    /// A folder of `WebResources.folders` that the build did not embed.
    case missingFolder(String)
}
