import Foundation
import NIOCore

/// The web app's CSS and JavaScript, built into the binary and served from memory.
/// Only the CSS, JavaScript and images in the web folders (`WebResources`) are served, by file name alone, so a
/// request path can never reach a template, or anything on disk.
struct StaticAssets: Sendable {
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        /// A strong validator from the file's content, so a browser revalidating an unversioned URL gets 304.
        let etag: String
    }

    let assets: [String: Asset]
    /// A hash of every file, put into asset URLs (`?v=`): browsers may cache a versioned URL for good,
    /// and a new build gets new URLs.
    let version: String

    init(folders: [WebFolder]) throws {
        var assets: [String: Asset] = [:]
        var hash = FNV1a()
        for file in try WebResources.files(in: folders) {
            guard let contentType = Self.contentTypes[(file.name as NSString).pathExtension.lowercased()] else { continue }
            let bytes = file.bytes
            hash.add(Array(file.name.utf8))
            hash.add(bytes)
            var fileHash = FNV1a()
            fileHash.add(bytes)
            let etag = "\"" + String(fileHash.value, radix: 16) + "\""
            assets[file.name] = Asset(body: ByteBuffer(bytes: bytes), contentType: contentType, etag: etag)
        }
        self.assets = assets
        self.version = String(hash.value, radix: 16)
    }

    subscript(name: String) -> Asset? { assets[name] }

    static let contentTypes: [String: String] = [
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
    ]
}

/// 64-bit FNV-1a: a stable content hash (Swift's `Hasher` is seeded per process, so URLs would change on restart).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
    }
}
