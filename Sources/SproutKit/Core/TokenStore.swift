import Foundation

/// What a signed-in device keeps between launches: the Bearer token and the id of the account it belongs to
/// (the SeSAC apps keep exactly these two; the id decides which posts and comments show edit controls).
public struct StoredCredentials: Codable, Sendable, Hashable {
    /// The Bearer token (a JWT).
    public var token: String
    /// The signed-in account's id.
    public var userID: Int

    /// Credentials with the given values.
    public init(token: String, userID: Int) {
        self.token = token
        self.userID = userID
    }
}

/// Where a `Session` keeps its credentials. Synchronous: the stores are small local files or keychain items,
/// and a session reads them once at start, before its first screen.
public protocol TokenStore: Sendable {
    /// The stored credentials, or nil when none are stored.
    /// - Throws: when the store exists but cannot be read.
    func load() throws -> StoredCredentials?
    /// Replaces the stored credentials.
    func save(_ credentials: StoredCredentials) throws
    /// Removes the stored credentials; nothing stored is not an error.
    func clear() throws
}

/// Credentials kept in memory only: for tests and previews, and for an app that must not persist a token.
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable {
    // A lock, not an actor: the protocol is synchronous. Every access to `stored` holds it.
    private let lock = NSLock()
    private var stored: StoredCredentials?

    /// A store holding `credentials` (nothing unless given).
    public init(_ credentials: StoredCredentials? = nil) {
        stored = credentials
    }

    /// The credentials held.
    public func load() -> StoredCredentials? {
        lock.withLock { stored }
    }

    /// Holds `credentials` instead of the previous ones.
    public func save(_ credentials: StoredCredentials) {
        lock.withLock { stored = credentials }
    }

    /// Forgets the credentials.
    public func clear() {
        lock.withLock { stored = nil }
    }
}
