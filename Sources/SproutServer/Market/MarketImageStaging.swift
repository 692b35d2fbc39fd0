import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// One file of an upload, staged: written to `tmp/` (file storage) or held in memory (database storage).
struct StagedMarketImageFile: Sendable {
    enum Content: Sendable {
        case temporaryFile(URL)
        case bytes(ByteBuffer)
    }

    let name: MarketImageFileName
    let content: Content
}

/// How staged files become stored inside the transaction that inserts their rows: `statements` run with the
/// rows' own (database storage: the blobs), `beforeCommit` after them and before COMMIT (file storage: the
/// renames into place). `beforeCommit` runs on a thread that may block; when it throws, it has undone its own
/// work and the transaction is rolled back.
struct MarketImagePlacement: Sendable {
    var statements: [SQLStatement]
    var beforeCommit: @Sendable () throws -> Void

    static let nothing = MarketImagePlacement(statements: [], beforeCommit: {})

    /// The same placement, noting in `done` once `beforeCommit` has finished. After that the files may be in
    /// place whether or not COMMIT went through (its failure can be reported when it did), so they are left
    /// there: at worst unreferenced files for `sprout doctor`, never a row whose file was taken away.
    func noting(_ done: NIOLockedValueBox<Bool>) -> MarketImagePlacement {
        let place = beforeCommit
        return MarketImagePlacement(statements: statements) {
            try place()
            done.withLockedValue { $0 = true }
        }
    }
}
