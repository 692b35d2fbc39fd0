import Foundation
import NIOPosix

/// Thread pools of their own for the server's kinds of slow CPU work, apart from NIO's shared pool (file
/// I/O) and from each other: uploads being decoded can no longer make a login wait (two decode bombs made a
/// correct login take 4.7 s when both shared `NIOThreadPool.singleton`). They live as long as the process.
enum WorkPools {
    /// Image decoding and thumbnails: half the cores (at least one), so however many uploads arrive, the rest of
    /// the machine stays free for everything else.
    static let imageDecoding = started(threads: imageDecodingThreads)
    static let imageDecodingThreads = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
    /// bcrypt (sign-up, login, password change): one thread per core.
    static let passwordHashing = started(threads: max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// Waiting for uploaded pictures to reach the disk (`fdatasync`): no CPU, but each wait holds its thread for a
    /// journal commit, so enough threads that uploads arriving together wait together, and none of them taken
    /// from NIO's pool, whose two threads serve picture reads.
    static let fileSyncs = started(threads: 8)
    /// Encoding answers too large for one page (`StreamedJSONArray`): half the cores, so however many such lists
    /// run, they take at most that much of the machine.
    static let largeAnswers = started(threads: max(1, ProcessInfo.processInfo.activeProcessorCount / 2))

    private static func started(threads: Int) -> NIOThreadPool {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }
}
