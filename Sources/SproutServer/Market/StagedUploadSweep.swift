import Foundation
import NIOPosix

extension FileImageStorage {
    /// How old a staged file must be before it counts as left behind. An upload holds its staged files for as
    /// long as its request lasts — seconds, minutes at most — and several `sprout serve` processes may share one
    /// data directory, so a file younger than this may be another process's upload in flight.
    static let stagedFileLifetime: TimeInterval = 60 * 60

    /// Removes staged files older than `age` (what a crash or kill left in `tmp/`); answers how many, or nil when
    /// there is no `tmp/` at all. Reads the directory one entry at a time.
    func removeStaleStagedFiles(olderThan age: TimeInterval = stagedFileLifetime, now: Date = Date()) async throws -> Int? {
        try await NIOThreadPool.singleton.runIfActive { try visitStaleStagedFiles(olderThan: age, now: now, remove: true) }
    }

    /// The stale staged files' names (at most `limit`, for a report) and their count; removed when `remove`.
    func staleStagedFiles(olderThan age: TimeInterval = stagedFileLifetime, now: Date = Date(), remove: Bool, limit: Int) async throws -> (count: Int, names: [String]) {
        try await NIOThreadPool.singleton.runIfActive {
            var names: [String] = []
            let count = try visitStaleStagedFiles(olderThan: age, now: now, remove: remove) { name in
                if names.count < limit { names.append(name) }
            } ?? 0
            return (count, names)
        }
    }

    private static let direntNameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    /// Blocking: one pass over `tmp/`.
    private func visitStaleStagedFiles(olderThan age: TimeInterval, now: Date, remove: Bool, _ visit: (String) -> Void = { _ in }) throws -> Int? {
        guard let directory = opendir(staging.path) else {
            if errno == ENOENT { return nil }
            throw PosixFile.Failure(operation: "open", path: staging.path, code: errno)
        }
        defer { closedir(directory) }
        let cutoff = now.timeIntervalSince1970 - age
        var count = 0
        while let entry = readdir(directory) {
            // Read in place: copying `d_name` (256 bytes) can read past a short record at the end of readdir's
            // buffer (the crash swiftlang/swift-corelibs-foundation#5472 fixed in Foundation's own copy).
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: Self.direntNameOffset).assumingMemoryBound(to: CChar.self))
            guard name != ".", name != ".." else { continue }
            let path = staging.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            guard Double(status.st_mtim.tv_sec) < cutoff else { continue }
            visit(name)
            if remove { PosixFile.removeIfPresent(path) }
            count += 1
        }
        return count
    }
}
