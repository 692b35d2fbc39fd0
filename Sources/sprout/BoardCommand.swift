import ArgumentParser
import Foundation
import SproutServer

/// `sprout board …`: the boards of the Mail Plug app's menu.
struct BoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "List, create, rename or archive boards.",
        subcommands: [List.self, Create.self, Rename.self, Archive.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List every board, archived ones included.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            try await withBoards(data) { boards in
                for board in try await boards.list() { print(board.line) }
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a board at the end of the menu.")
        @Option(help: "The board's name (1…50 characters).") var name: String
        @Option(help: "normal, notice (posts carry the notice badge) or anonymous (writers show as 익명).") var type: String = "normal"
        @Flag(help: "Nobody may write in it (the API token never may).") var readOnly = false
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (name, type, writable) = (name, type, !readOnly)
            try await withBoards(data) { boards in print(try await boards.create(name: name, type: type, writable: writable).line) }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a board a new name.")
        @Argument(help: "The board's id.") var id: Int
        @Option(help: "The new name.") var name: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (id, name) = (id, name)
            try await withBoards(data) { boards in print(try await boards.rename(id: id, to: name).line) }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Hide a board from the menu; its posts are no longer served.")
        @Argument(help: "The board's id.") var id: Int
        @OptionGroup var data: DataOptions

        func run() async throws {
            let id = id
            try await withBoards(data) { boards in print(try await boards.archive(id: id).line) }
        }
    }
}

private func withBoards(_ data: DataOptions, _ body: @escaping @Sendable (BoardAdministration) async throws -> Void) async throws {
    let configuration = try data.configuration()
    do {
        try await withDatabase(configuration) { database in
            try await database.prepare(configuration)
            try await body(BoardAdministration(database: database))
        }
    } catch let error as BoardAdministrationError {
        throw ValidationError(error.description)
    }
}

extension BoardSummary {
    var line: String {
        "\(id)\t\(displayName)\t\(type)\t\(writable ? "writable" : "read-only")\t\(archived ? "archived" : "shown")"
    }
}
