import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SproutKit
import Testing

/// The token stores keep the credentials, and the file store keeps them from other users.
@Suite struct TokenStoreTests {
    static func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)/nested/session.json")
    }

    /// The permission bits of `url`, from `stat(2)`.
    static func mode(of url: URL) throws -> mode_t {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw StubError.offline }
        return info.st_mode & 0o777
    }

    @Test func theFileStoreRoundTripsReplacesAndClears() throws {
        let url = Self.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = FileTokenStore(url: url)
        #expect(try store.load() == nil)
        try store.save(StoredCredentials(token: "first.jwt", userID: 7))
        #expect(try store.load() == StoredCredentials(token: "first.jwt", userID: 7))
        try store.save(StoredCredentials(token: "second.jwt", userID: 8))
        #expect(try FileTokenStore(url: url).load() == StoredCredentials(token: "second.jwt", userID: 8))
        try store.clear()
        #expect(try store.load() == nil)
        try store.clear()
    }

    @Test func theTokenFileIsReadableByItsOwnerOnly() throws {
        let url = Self.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        let store = FileTokenStore(url: url)
        try store.save(StoredCredentials(token: "secret.jwt", userID: 1))
        #expect(try Self.mode(of: url) == 0o600)
        #expect(try Self.mode(of: url.deletingLastPathComponent()) == 0o700)
        // A replacement is a new file: it must be born 0600 too.
        try store.save(StoredCredentials(token: "secret2.jwt", userID: 1))
        #expect(try Self.mode(of: url) == 0o600)
        // No temporary file is left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(left == ["session.json"])
    }

    @Test func anUnreadableTokenFileIsAnErrorNotNoCredentials() throws {
        let url = Self.temporaryURL()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent().deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not json".utf8).write(to: url)
        #expect(throws: (any Error).self) { try FileTokenStore(url: url).load() }
    }

    @Test func theInMemoryStoreRoundTrips() {
        let store = InMemoryTokenStore()
        #expect(store.load() == nil)
        store.save(StoredCredentials(token: "t", userID: 3))
        #expect(store.load() == StoredCredentials(token: "t", userID: 3))
        store.clear()
        #expect(store.load() == nil)
        #expect(InMemoryTokenStore(StoredCredentials(token: "u", userID: 4)).load()?.userID == 4)
    }
}
