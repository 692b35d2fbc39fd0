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

    /// Creates `path` (it must not exist), 0600, and writes `bytes` to it.
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
        if close(descriptor) != 0, failure == nil { failure = Failure(operation: "close", path: path, code: errno) }
        if let failure {
            removeIfPresent(path)
            throw failure
        }
    }

    /// A new name for an existing file; false where the file system cannot (no hard links, or another device).
    static func link(_ existing: String, to path: String) -> Bool {
        Glibc.link(existing, path) == 0
    }

    static func rename(_ from: String, to: String) throws {
        guard Foundation.rename(from, to) == 0 else { throw Failure(operation: "rename", path: "\(from) to \(to)", code: errno) }
    }

    static func removeIfPresent(_ path: String) {
        _ = unlink(path)
    }
}
