import Crypto
import Foundation

/// A plain POSIX ustar archive, written and read here (no dependency): `tar tvf` lists a backup and `tar xf`
/// unpacks it. Only what backups need: regular files, names up to 255 bytes (name + prefix), sizes of any length
/// (octal up to 8 GiB, GNU's base-256 above), no links, no extensions.
///
/// The reader is strict, so that any damaged byte is found: every header's checksum, zero padding after each
/// file, two zero blocks at the end and nothing after them. The files' own bytes are checked against the
/// manifest's SHA-256 sums by the caller (`BackupArchive`).
enum Tar {
    static let block = 512

    /// Bytes a file of `size` takes after its header, padding included.
    static func paddedSize(_ size: Int64) -> Int64 { (size + Int64(block) - 1) / Int64(block) * Int64(block) }

    /// A ustar header for a regular file.
    static func header(name: String, size: Int64, mode: Int = 0o600, modified: Date) throws -> [UInt8] {
        var header = [UInt8](repeating: 0, count: block)
        let (prefix, base) = try split(name)
        put(Array(base.utf8), at: 0, width: 100, into: &header)
        put(octal(mode, width: 8), at: 100, width: 8, into: &header)
        put(octal(0, width: 8), at: 108, width: 8, into: &header)  // uid
        put(octal(0, width: 8), at: 116, width: 8, into: &header)  // gid
        if size < 0o77777777777 {
            put(octal(Int(size), width: 12), at: 124, width: 12, into: &header)
        } else {
            // GNU's base-256: the high bit of the first byte set, the number big-endian in the rest.
            header[124] = 0x80
            for index in 0..<8 { header[124 + 11 - index] = UInt8(truncatingIfNeeded: size >> (8 * index)) }
        }
        put(octal(max(0, Int(modified.timeIntervalSince1970)), width: 12), at: 136, width: 12, into: &header)
        header[156] = UInt8(ascii: "0")
        put(Array("ustar\0".utf8), at: 257, width: 6, into: &header)
        put(Array("00".utf8), at: 263, width: 2, into: &header)
        put(Array(prefix.utf8), at: 345, width: 155, into: &header)
        let sum = checksum(of: header)
        put(octal(sum, width: 7) , at: 148, width: 7, into: &header)  // six digits and a NUL …
        header[155] = UInt8(ascii: " ")  // … then a space, as tar writes it
        return header
    }

    /// The header's byte sum with its checksum field counted as spaces.
    static func checksum(of header: [UInt8]) -> Int {
        var sum = 0
        for (index, byte) in header.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
        return sum
    }

    /// ustar keeps a long name as a prefix (up to 155 bytes) and a name (up to 100), split at a slash.
    private static func split(_ name: String) throws -> (prefix: String, name: String) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw BackupError.unsafeName(name)
        }
        if bytes.count <= 100 { return ("", name) }
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "/") {
            let prefix = bytes[..<index], rest = bytes[(index + 1)...]
            if prefix.count <= 155, rest.count <= 100, !rest.isEmpty {
                return (String(decoding: prefix, as: UTF8.self), String(decoding: rest, as: UTF8.self))
            }
        }
        throw BackupError.unsafeName(name)
    }

    private static func octal(_ value: Int, width: Int) -> [UInt8] {
        let digits = String(value, radix: 8)
        return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8)
    }

    private static func put(_ bytes: [UInt8], at offset: Int, width: Int, into header: inout [UInt8]) {
        for (index, byte) in bytes.prefix(width).enumerated() { header[offset + index] = byte }
    }

    /// One file's place in an archive, read from its header.
    struct Entry: Sendable {
        let name: String
        let size: Int64
        /// Where its bytes begin in the archive.
        let dataOffset: Int64
    }

    /// Reads the headers of the archive at `descriptor` (of `length` bytes): every entry, in order. Throws for
    /// anything that is not a ustar archive of regular files ending as `TarWriter` ends one.
    static func entries(of descriptor: Int32, length: Int64, path: String) throws -> [Entry] {
        var entries: [Entry] = []
        var offset: Int64 = 0
        var header = [UInt8](repeating: 0, count: block)
        while true {
            guard offset + Int64(block) <= length else { throw BackupError.truncated(path) }
            try PosixIO.readExactly(descriptor, into: &header, count: block, at: offset, path: path)
            if header.allSatisfy({ $0 == 0 }) {
                // The end: a second zero block, then nothing (the writer adds no blocking to a record size).
                guard offset + 2 * Int64(block) <= length else { throw BackupError.truncated(path) }
                try PosixIO.readExactly(descriptor, into: &header, count: block, at: offset + Int64(block), path: path)
                guard header.allSatisfy({ $0 == 0 }) else { throw BackupError.damaged(path, "a lone zero block inside the archive") }
                guard offset + 2 * Int64(block) == length else {
                    throw BackupError.damaged(path, "\(length - offset - 2 * Int64(block)) bytes after the archive's end")
                }
                return entries
            }
            guard let stored = parseOctal(header[148..<156]), stored == checksum(of: header) else {
                throw entries.isEmpty ? BackupError.notABackup(path) : BackupError.damaged(path, "a file header's checksum does not match")
            }
            guard Array(header[257..<263]) == Array("ustar\0".utf8) else { throw BackupError.notABackup(path) }
            guard header[156] == UInt8(ascii: "0") || header[156] == 0 else {
                throw BackupError.damaged(path, "an entry that is not a regular file")
            }
            let name = string(header[0..<100]), prefix = string(header[345..<500])
            let fullName = prefix.isEmpty ? name : prefix + "/" + name
            let size: Int64
            if header[124] & 0x80 != 0 {
                size = header[125..<136].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            } else if let octalSize = parseOctal(header[124..<136]) {
                size = Int64(octalSize)
            } else {
                throw BackupError.damaged(path, "a file header's size is unreadable")
            }
            let dataOffset = offset + Int64(block)
            guard dataOffset + paddedSize(size) <= length else { throw BackupError.truncated(path) }
            entries.append(Entry(name: fullName, size: size, dataOffset: dataOffset))
            offset = dataOffset + paddedSize(size)
        }
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func parseOctal(_ bytes: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: bytes.prefix { $0 != 0 && $0 != UInt8(ascii: " ") }, as: UTF8.self)
        guard !text.isEmpty else { return nil }
        return Int(text, radix: 8)
    }
}

/// Writes a ustar archive to a file, each file hashed as it is copied in.
struct TarWriter {
    let descriptor: Int32
    let path: String
    private(set) var offset: Int64 = 0
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    /// Bytes written since the last `fdatasync`: the archive is flushed every 8 MiB, so that its gigabyte never
    /// waits in the disk's queue in front of the server's own writes.
    private var unflushed = 0
    static let flushEvery = 8 << 20

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Adds `bytes` as `name`.
    mutating func add(name: String, bytes: [UInt8], modified: Date) throws {
        try write(try Tar.header(name: name, size: Int64(bytes.count), modified: modified))
        try write(bytes)
        try pad(Int64(bytes.count))
    }

    /// Copies `size` bytes of the open file `source` in as `name`; answers their SHA-256. The file must still hold
    /// `size` bytes (backups copy only files nobody rewrites: a finished database copy, placed images).
    mutating func add(name: String, from source: Int32, size: Int64, modified: Date, sourcePath: String) throws -> String {
        try write(try Tar.header(name: name, size: size, modified: modified))
        var hasher = SHA256()
        var remaining = size
        while remaining > 0 {
            let wanted = Int(min(Int64(buffer.count), remaining))
            let count = try buffer.withUnsafeMutableBytes { raw in
                try PosixIO.read(source, into: raw.baseAddress!, count: wanted, path: sourcePath)
            }
            guard count > 0 else { throw BackupError.fileChanged(sourcePath) }
            try buffer.withUnsafeBytes { raw in
                let chunk = UnsafeRawBufferPointer(rebasing: raw[0..<count])
                hasher.update(bufferPointer: chunk)
                try PosixIO.writeAll(descriptor, chunk, path: path)
            }
            remaining -= Int64(count)
            unflushed += count
            if unflushed >= Self.flushEvery {
                guard fdatasync(descriptor) == 0 else { throw BackupError.io("fdatasync", path, errno) }
                unflushed = 0
            }
        }
        offset += size
        try pad(size)
        return hasher.finalize().hexString
    }

    /// The two zero blocks that end an archive.
    mutating func finish() throws {
        try write([UInt8](repeating: 0, count: 2 * Tar.block))
    }

    private mutating func pad(_ size: Int64) throws {
        let padding = Int(Tar.paddedSize(size) - size)
        if padding > 0 { try write([UInt8](repeating: 0, count: padding)) }
    }

    private mutating func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try PosixIO.writeAll(descriptor, $0, path: path) }
        offset += Int64(bytes.count)
    }
}

/// Unbuffered reads and writes on file descriptors, retried on EINTR, failures named by path.
enum PosixIO {
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var done = 0
        while done < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                throw BackupError.io("write", path, errno)
            }
            done += written
        }
    }

    /// Up to `count` bytes; 0 at the end of the file.
    static func read(_ descriptor: Int32, into pointer: UnsafeMutableRawPointer, count: Int, path: String) throws -> Int {
        while true {
            let got = Foundation.read(descriptor, pointer, count)
            if got < 0 {
                if errno == EINTR { continue }
                throw BackupError.io("read", path, errno)
            }
            return got
        }
    }

    static func readExactly(_ descriptor: Int32, into bytes: inout [UInt8], count: Int, at offset: Int64, path: String) throws {
        var done = 0
        try bytes.withUnsafeMutableBytes { raw in
            while done < count {
                let got = pread(descriptor, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if got < 0 {
                    if errno == EINTR { continue }
                    throw BackupError.io("read", path, errno)
                }
                guard got > 0 else { throw BackupError.truncated(path) }
                done += got
            }
        }
    }

    static func fsync(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BackupError.io("open", path, errno) }
        defer { close(descriptor) }
        guard Foundation.fsync(descriptor) == 0 else { throw BackupError.io("fsync", path, errno) }
    }

    static func size(of descriptor: Int32, path: String) throws -> Int64 {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw BackupError.io("stat", path, errno) }
        return Int64(status.st_size)
    }
}

extension Digest {
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
