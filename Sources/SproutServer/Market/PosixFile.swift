import Foundation
import NIOCore

/// The few file calls staging needs, straight to the system: a new file that is the owner's alone whatever the
/// umask, a rename that fails rather than copies, and a removal that takes a missing file as done. Blocking:
/// callers run them on NIO's thread pool or the database's writer thread.
enum PosixFile {
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let path: String
        let code: Int32
        var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// Creates `path` (it must not exist), 0600, writes `bytes` to it and starts writing them to disk without
    /// waiting, so that by the time `syncAndEvict` waits for an upload's files, their writes are done or under way
    /// together. (Linux's `POSIX_FADV_DONTNEED` starts the writeback of dirty pages and drops only clean ones;
    /// `sync_file_range`, which says so directly, is not in Swift's Glibc module.)
    static func writeNew(_ bytes: ByteBuffer, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(operation: "create", path: path, code: errno) }
        var failure: Failure?
        bytes.withUnsafeReadableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Failure(operation: "write", path: path, code: errno)
                    return
                }
                offset += written
            }
        }
        // Only a head start: whatever it leaves undone, or fails at, `syncAndEvict` does or reports.
        if failure == nil { _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) }
        if close(descriptor) != 0, failure == nil { failure = Failure(operation: "close", path: path, code: errno) }
        if let failure {
            removeIfPresent(path)
            throw failure
        }
    }

    /// Waits until the files' bytes are on disk, then asks the kernel to drop their pages from its cache. A file
    /// reached by two of the paths (a thumbnail that is a second link to its original) is synced once.
    ///
    /// On disk before the row that names a file commits: without the sync, a crash within the kernel's writeback
    /// delay (about 30 s) left a committed product whose image was empty (ext4 allocates a new file's blocks only
    /// at writeback). Out of the cache because a picture is written once and read rarely: the growth benchmark's
    /// million products wrote about 23 GB of them, which pushed the database's own pages out of a 24 GB machine's
    /// cache, and product detail fell from 20,579 req/s (100,000 products) to 511 on disk reads; with this, 11,526
    /// at 538,000 products (docs/benchmarks.md, "Growth").
    static func syncAndEvict(_ paths: [String]) throws {
        var synced: Set<UInt64> = []
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw Failure(operation: "stat", path: path, code: errno) }
            guard synced.insert(UInt64(status.st_ino)).inserted else { continue }
            guard fdatasync(descriptor) == 0 else { throw Failure(operation: "sync", path: path, code: errno) }
            _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
        }
    }

    /// A new name for an existing file; false where the file system cannot (no hard links, or another device).
    static func link(_ existing: String, to path: String) -> Bool {
        Glibc.link(existing, path) == 0
    }

    static func rename(_ from: String, to: String) throws {
        guard Foundation.rename(from, to) == 0 else { throw Failure(operation: "rename", path: "\(from) to \(to)", code: errno) }
    }

    /// Waits until the directory's entries (a file renamed into it) are on disk.
    static func syncDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(operation: "open", path: path, code: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure(operation: "sync", path: path, code: errno) }
    }

    static func removeIfPresent(_ path: String) {
        _ = unlink(path)
    }
}
