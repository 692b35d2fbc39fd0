#if canImport(Security)
import Foundation
import Security

/// Credentials in the keychain, as one generic-password item (as the camosss SeSAC app keeps them): readable
/// after the device's first unlock, never synced to another device or restored from a backup onto one.
public struct KeychainTokenStore: TokenStore {
    /// The item's service (`kSecAttrService`).
    public let service: String
    /// The item's account (`kSecAttrAccount`).
    public let account: String

    /// A store for the item named by `service` and `account`.
    public init(service: String = "Sprout", account: String = "session") {
        self.service = service
        self.account = account
    }

    /// A keychain call failed with `status`.
    public struct KeychainError: Error, Sendable, CustomStringConvertible {
        /// The `OSStatus` the keychain answered.
        public let status: OSStatus

        /// The status and the system's explanation.
        public var description: String {
            "keychain error \(status): \(SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "unknown")"
        }
    }

    /// The attributes that identify the item.
    private var itemQuery: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    /// The stored credentials; nil when there is no item.
    public func load() throws -> StoredCredentials? {
        var query = itemQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
        guard let data = result as? Data else { throw KeychainError(status: errSecDecode) }
        return try JSONDecoder().decode(StoredCredentials.self, from: data)
    }

    /// Updates the item, or adds it when there is none.
    public func save(_ credentials: StoredCredentials) throws {
        let attributes: [String: Any] = [
            kSecValueData as String: try JSONEncoder().encode(credentials),
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        let updated = SecItemUpdate(itemQuery as CFDictionary, attributes as CFDictionary)
        if updated == errSecSuccess { return }
        guard updated == errSecItemNotFound else { throw KeychainError(status: updated) }
        let item = itemQuery.merging(attributes) { _, new in new }
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess else { throw KeychainError(status: added) }
    }

    /// Deletes the item; no item is not an error.
    public func clear() throws {
        let status = SecItemDelete(itemQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}
#endif
