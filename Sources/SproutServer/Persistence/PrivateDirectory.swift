import Foundation

/// The data directory holds the database (with the generated JWT key and vendor secrets) and the uploads: only
/// the account Sprout runs as may enter it. Created 0700; an existing one of ours is narrowed to 0700 (files in a
/// directory others cannot enter are out of their reach whatever their own mode). `sprout` also sets its umask to
/// 077, so the files it creates are 0600.
enum PrivateDirectory {
    static func ensure(_ directory: URL) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: directory.path) {
            let attributes = try manager.attributesOfItem(atPath: directory.path)
            let owner = (attributes[.ownerAccountID] as? NSNumber)?.uint32Value
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
            if owner == getuid(), mode & 0o077 != 0 {
                try manager.setAttributes([.posixPermissions: mode & 0o700], ofItemAtPath: directory.path)
            }
        } else {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
    }
}
