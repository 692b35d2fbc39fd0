import Crypto
import Foundation
import Synchronization

/// Seals the secrets the database must be able to give back — vendor secrets (the web app and `sprout vendor show`
/// display them, and product secrets are derived from them) and the generated JWT key — with AES-256-GCM under a
/// key that is never in the database: `SECRETS_KEY`, or else `secrets.key` in the data directory (0600, made on
/// first use). A copy of the database alone then holds no credential. The key is loaded once, on first use.
final class SecretSealer: Sendable {
    enum KeySource: Sendable, Hashable {
        /// `SECRETS_KEY`: any text of 32 or more bytes, stretched to a key (so `openssl rand -base64 32` will do).
        case text(String)
        /// A file of our own making, holding 32 random bytes as base64.
        case file(path: String)
    }

    /// What sealed text begins with (the generated JWT key, kept where a plain one was, is told apart by it).
    static let prefix = "sealed:v1:"

    let source: KeySource
    private let loaded = Mutex<SymmetricKey?>(nil)

    init(_ source: KeySource) {
        self.source = source
    }

    /// The sealer of `configuration`: `SECRETS_KEY` when set, else the data directory's key file.
    convenience init(_ configuration: SproutConfiguration) {
        if let text = configuration.data.secretsKey {
            self.init(.text(text))
        } else {
            self.init(.file(path: URL(fileURLWithPath: configuration.data.directory).appendingPathComponent("secrets.key").path))
        }
    }

    /// `plain` sealed for `purpose` (bound in, so a value sealed for one purpose does not open as another).
    func seal(_ plain: String, purpose: String) throws -> String {
        let box = try AES.GCM.seal(Data(plain.utf8), using: try key(), authenticating: Data(purpose.utf8))
        guard let combined = box.combined else { throw SecretSealingError.unreadable }
        return Self.prefix + combined.base64EncodedString()
    }

    /// The plain text of a value `seal` made for `purpose`; throws for anything else (another key, tampering).
    func open(_ sealed: String, purpose: String) throws -> String {
        guard sealed.hasPrefix(Self.prefix), let combined = Data(base64Encoded: String(sealed.dropFirst(Self.prefix.count))) else {
            throw SecretSealingError.unreadable
        }
        do {
            let plain = try AES.GCM.open(try AES.GCM.SealedBox(combined: combined), using: try key(), authenticating: Data(purpose.utf8))
            return String(decoding: plain, as: UTF8.self)
        } catch let error as SecretSealingError {
            throw error
        } catch {
            throw SecretSealingError.unreadable
        }
    }

    /// A value that tells keys apart without revealing them: kept in the database, compared at start, so a
    /// process with another key refuses to start instead of failing every vendor request.
    func keyCheck() throws -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("sprout secrets key check".utf8), using: try key())
        return Data(code.prefix(16)).base64EncodedString()
    }

    func key() throws -> SymmetricKey {
        try loaded.withLock { cached in
            if let cached { return cached }
            let key = try Self.load(source)
            cached = key
            return key
        }
    }

    private static func load(_ source: KeySource) throws -> SymmetricKey {
        switch source {
        case .text(let text):
            return HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: Data(text.utf8)), info: Data("sprout secrets key v1".utf8), outputByteCount: 32
            )
        case .file(let path):
            return try SecretsKeyFile.read(orCreateAt: path)
        }
    }
}

enum SecretSealingError: Error, CustomStringConvertible {
    /// Sealed with another key, damaged, or not sealed text at all.
    case unreadable
    case keyFile(path: String, reason: String)
    /// The database's secrets were sealed with another key.
    case otherKey(source: SecretSealer.KeySource)

    var description: String {
        switch self {
        case .unreadable:
            "A sealed secret could not be opened (another key, or damaged)."
        case .keyFile(let path, let reason):
            "The secrets key file \(path) \(reason)."
        case .otherKey(let source):
            "The secrets in this database were sealed with another key than "
                + sourceName(source)
                + ". Every `sprout` process on one database needs the same key: set SECRETS_KEY to the same value on each, "
                + "or give this one the secrets.key file of the data directory the database was first used with."
        }
    }

    private func sourceName(_ source: SecretSealer.KeySource) -> String {
        switch source {
        case .text: "SECRETS_KEY"
        case .file(let path): path
        }
    }
}

/// `secrets.key`: 32 random bytes as base64, made once. Two processes starting together on one data directory
/// both end up with the first one's key: the file is written whole under a temporary name and linked into place,
/// which fails if it is already there.
enum SecretsKeyFile {
    static func read(orCreateAt path: String) throws -> SymmetricKey {
        let url = URL(fileURLWithPath: path)
        if !FileManager.default.fileExists(atPath: path) {
            try create(at: url)
        }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw SecretSealingError.keyFile(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
            throw SecretSealingError.keyFile(path: path, reason: "does not hold 32 bytes as base64")
        }
        return SymmetricKey(data: bytes)
    }

    private static func create(at url: URL) throws {
        do {
            try PrivateDirectory.ensure(url.deletingLastPathComponent())
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".secrets.key.\(UUID().uuidString)")
            let key = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            try Data((key.base64EncodedString() + "\n").utf8).write(to: temporary)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: temporary.path)
            defer { try? FileManager.default.removeItem(at: temporary) }
            if link(temporary.path, url.path) != 0, errno != EEXIST {
                throw SecretSealingError.keyFile(path: url.path, reason: "cannot be made (\(String(cString: strerror(errno))))")
            }
        } catch let error as SecretSealingError {
            throw error
        } catch {
            throw SecretSealingError.keyFile(path: url.path, reason: "cannot be made (\(error.localizedDescription))")
        }
    }
}
