import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Credentials in a JSON file that only the device's user can read (mode 0600, in a directory created 0700).
/// Each save writes a new file and renames it over the old one, so a crash mid-save leaves the old credentials
/// or the new ones, never half a file; the new file is created 0600 from the start, so the token is never
/// readable by others, not even for a moment. For Linux and command-line tools; apps on Apple platforms use
/// `KeychainTokenStore`.
public struct FileTokenStore: TokenStore {
    /// Where the file is.
    public let url: URL

    /// A store at `url`; the file and its directory are created on the first save.
    public init(url: URL) {
        self.url = url
    }

    /// Why the file could not be written.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// What was being done.
        public let operation: String
        /// The `errno` it failed with.
        public let code: Int32

        /// The operation and the system's explanation.
        public var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// The stored credentials; nil when there is no file.
    /// - Throws: when the file exists but cannot be read or is not credentials.
    public func load() throws -> StoredCredentials? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where Self.isMissingFile(error) {
            return nil
        }
        return try JSONDecoder().decode(StoredCredentials.self, from: data)
    }

    /// Writes `credentials` atomically, readable and writable by the owner only.
    public func save(_ credentials: StoredCredentials) throws {
        let data = try JSONEncoder().encode(credentials)
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try temporary.withUnsafeFileSystemRepresentation { tempPath in
            guard let tempPath else { throw WriteError(operation: "no file system path for \(temporary.path)", code: EINVAL) }
            let descriptor = open(tempPath, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard descriptor >= 0 else { throw WriteError(operation: "create \(temporary.path)", code: errno) }
            var closed = false
            defer { if !closed { close(descriptor) } }
            do {
                try data.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                        if written < 0 {
                            if errno == EINTR { continue }
                            throw WriteError(operation: "write \(temporary.path)", code: errno)
                        }
                        offset += written
                    }
                }
                // On disk before the rename, or a crash could leave an empty file under the real name.
                guard fsync(descriptor) == 0 else { throw WriteError(operation: "fsync \(temporary.path)", code: errno) }
                closed = true
                guard close(descriptor) == 0 else { throw WriteError(operation: "close \(temporary.path)", code: errno) }
                try url.withUnsafeFileSystemRepresentation { finalPath in
                    guard let finalPath else { throw WriteError(operation: "no file system path for \(url.path)", code: EINVAL) }
                    guard rename(tempPath, finalPath) == 0 else { throw WriteError(operation: "rename to \(url.path)", code: errno) }
                }
            } catch {
                unlink(tempPath)
                throw error
            }
        }
    }

    /// Deletes the file; no file is not an error.
    public func clear() throws {
        do {
            try FileManager.default.removeItem(at: url)
        } catch let error as CocoaError where Self.isMissingFile(error) {
            return
        }
    }

    /// Foundation reports a missing file with either code, depending on the call and the platform.
    private static func isMissingFile(_ error: CocoaError) -> Bool {
        error.code == .fileNoSuchFile || error.code == .fileReadNoSuchFile
    }
}
