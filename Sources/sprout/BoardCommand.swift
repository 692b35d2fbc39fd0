import ArgumentParser
import Foundation
import SproutServer

/// `sprout board …`: the boards of the Mail Plug app's menu.
struct BoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "List, create, rename, move, archive or delete boards, and pin posts (every change is in the audit log).",
        subcommands: [List.self, Create.self, Rename.self, Move.self, Archive.self, Unarchive.self, Writable.self, Delete.self, Pin.self, Unpin.self]
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
        @Flag(help: "Only moderators and admins may write in it, as in 공지사항 (the API token never may).") var readOnly = false
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (name, type, writable) = (name, type, !readOnly)
            try await withBoards(data) { boards in print(try await boards.create(name: name, type: type, writable: writable, by: .commandLine()).line) }
        }
    }

    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Give a board a new name.")
        @Argument(help: "The board's id.") var id: Int
        @Option(help: "The new name.") var name: String
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (id, name) = (id, name)
            try await withBoards(data) { boards in print(try await boards.rename(id: id, to: name, by: .commandLine()).line) }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a board to a place in the menu (1 is first).")
        @Argument(help: "The board's id.") var id: Int
        @Option(help: "Its new place, from 1.") var to: Int
        @OptionGroup var data: DataOptions

        func run() async throws {
            let (id, position) = (id, to)
            try await withBoards(data) { boards in for board in try await boards.move(id: id, to: position, by: .commandLine()) { print(board.line) } }
        }
    }

    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a board read-only and take it out of the menu; its posts stay readable.")
        @Argument(help: "The board's id.") var id: Int
        @OptionGroup var data: DataOptions

        func run() async throws {
            let id = id
            try await withBoards(data) { boards in print(try await boards.setArchived(id: id, true, by: .commandLine()).line) }
        }
    }

    struct Unarchive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Bring an archived board back to the menu.")
        @Argument(help: "The board's id.") var id: Int
        @OptionGroup var data: DataOptions

        func run() async throws {
            let id = id
            try await withBoards(data) { boards in print(try await boards.setArchived(id: id, false, by: .commandLine()).line) }
        }
    }

    struct Writable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let every account write in a board (yes), or only moderators and admins (no).")
        @Argument(help: "The board's id.") var id: Int
        @Argument(help: "yes or no.") var answer: String
        @OptionGroup var data: DataOptions

        func validate() throws {
            guard ["yes", "no"].contains(answer) else { throw ValidationError("Answer yes or no.") }
        }

        func run() async throws {
            let (id, writable) = (id, answer == "yes")
            try await withBoards(data) { boards in print(try await boards.setWritable(id: id, writable, by: .commandLine()).line) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a board that has no posts.")
        @Argument(help: "The board's id.") var id: Int
        @OptionGroup var data: DataOptions

        func run() async throws {
            let id = id
            try await withBoards(data) { boards in print("Deleted: " + (try await boards.delete(id: id, by: .commandLine()).line)) }
        }
    }
}

extension BoardCommand {
    struct Pin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pin a post above its board's list (at most \(BoardAdministration.maximumPinnedPosts) a board)."
        )
        @Argument(help: "The post's id.") var postID: Int
        @OptionGroup var data: DataOptions

        func run() async throws {
            let id = postID
            try await withBoards(data) { boards in print(try await boards.setPinned(postID: id, true, by: .commandLine()).line) }
        }
    }

    struct Unpin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unpin a post: it stays in its board's list.")
        @Argument(help: "The post's id.") var postID: Int
        @OptionGroup var data: DataOptions

        func run() async throws {
            let id = postID
            try await withBoards(data) { boards in print(try await boards.setPinned(postID: id, false, by: .commandLine()).line) }
        }
    }
}

extension PinnedPostSummary {
    var line: String { "\(id)\tboard \(boardID)\t\(pinned ? "pinned" : "not pinned")\t\(title)" }
}

private func withBoards(_ data: DataOptions, _ body: @escaping @Sendable (BoardAdministration) async throws -> Void) async throws {
    let configuration = try data.configuration()
    do {
        try await withDatabase(configuration) { database in
            try await database.prepare(configuration)
            try await body(BoardAdministration(database: database, configuration: configuration))
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
