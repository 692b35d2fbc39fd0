import ArgumentParser
import Foundation
import SproutServer

/// `sprout doctor`: looks for what a crash or a lost file leaves behind, and says so in its exit status.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the market's images: files no product refers to, products whose files are missing, stale uploads.",
        discussion: """
            Exits 1 when a problem is left. --fix removes image files (or database blobs) that no product image \
            refers to and staged uploads older than an hour; it never changes a row, so missing files stay \
            reported. Files younger than an hour are left alone: a server sharing the data directory may be \
            uploading them now.
            """
    )

    @Flag(help: "Remove what nothing refers to (never a database row).") var fix = false
    @OptionGroup var data: DataOptions

    func run() async throws {
        let configuration = try data.configuration()
        let fix = fix
        let remaining = try await withDatabase(configuration) { database in
            try await database.migrate()
            let report = try await MarketImageDoctor(database: database, configuration: configuration).examine(fix: fix)
            print(report.text)
            return report.problemsRemaining
        }
        if remaining > 0 { throw ExitCode(1) }
    }
}
