import Foundation

/// A file under the test bundle's `Fixtures/` (copied from `shared/fixtures`).
enum FixtureFile {
    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "missing fixture \(path)" }
    }

    /// The bytes of `Fixtures/<path>`.
    static func data(_ path: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(path)", withExtension: nil) else { throw Missing(path: path) }
        return try Data(contentsOf: url)
    }
}
