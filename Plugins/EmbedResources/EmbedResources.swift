import Foundation
import PackagePlugin

/// Builds a target's non-Swift files into its code, so the `sprout` binary carries its web app and OpenAPI document
/// and reads nothing from the build tree at run time. Every file SwiftPM leaves to plugins (neither a source nor a
/// declared resource) is embedded; the files of one folder become one generated Swift file, and the folders are
/// named by their last path component (`Web/Market/market` → `market`), which must therefore differ.
///
/// `EmbedResourcesTool` writes each file as a raw string literal (or, if it is not plain text, as base64), which the
/// compiler reads in linear time — unlike SwiftPM's `.embedInCode`, whose byte arrays slow the build badly past
/// ~100 KB a file (swiftlang/swift-package-manager#6923).
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let files = module.sourceFiles.filter { $0.type == .unknown }
        var folders: [String: (directory: URL, files: [URL])] = [:]
        for file in files {
            let directory = file.url.deletingLastPathComponent()
            let name = directory.lastPathComponent
            if let other = folders[name], other.directory.standardizedFileURL != directory.standardizedFileURL {
                throw EmbedError.sameFolderName(name, other.directory.path, directory.path)
            }
            folders[name, default: (directory, [])].files.append(file.url)
        }
        let tool = try context.tool(named: "EmbedResourcesTool").url
        let output = context.pluginWorkDirectoryURL
        let names = folders.keys.sorted()
        // One command per folder, so a changed script regenerates (and recompiles) its own folder only.
        var commands: [Command] = names.map { name in
            let folder = folders[name]!
            let paths = folder.files.sorted { $0.path < $1.path }
            let swiftFile = output.appendingPathComponent("EmbeddedFolder-\(name).swift")
            return .buildCommand(
                displayName: "Embedding \(module.name)'s \(name) (\(paths.count) files)",
                executable: tool,
                arguments: ["folder", name, swiftFile.path] + paths.map(\.path),
                inputFiles: paths,
                outputFiles: [swiftFile]
            )
        }
        let index = output.appendingPathComponent("EmbeddedResources.swift")
        commands.append(.buildCommand(
            displayName: "Indexing \(module.name)'s embedded folders",
            executable: tool,
            arguments: ["index", index.path] + names,
            inputFiles: [],
            outputFiles: [index]
        ))
        return commands
    }
}

enum EmbedError: Error, CustomStringConvertible {
    case sameFolderName(String, String, String)

    var description: String {
        switch self {
        case let .sameFolderName(name, first, second):
            "two embedded folders are both named '\(name)' (\(first), \(second)): rename one"
        }
    }
}
