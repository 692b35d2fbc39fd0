import Foundation

/// Small settings kept between launches (a screen's layout, say), read and written synchronously as
/// `UserDefaults` does. `UserDefaultsSettingsStore` on Apple platforms, `FileSettingsStore` on Linux,
/// `InMemorySettingsStore` in tests and previews.
public protocol SettingsStore: Sendable {
    /// The value stored under `key`, or nil.
    func string(forKey key: String) -> String?
    /// Stores `value` under `key`; nil removes it.
    func set(_ value: String?, forKey key: String)
}

/// Settings held in memory only.
public final class InMemorySettingsStore: SettingsStore, @unchecked Sendable {
    // Every access to `values` holds `lock`.
    private let lock = NSLock()
    private var values: [String: String]

    /// A store holding `values`.
    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    /// The value under `key`.
    public func string(forKey key: String) -> String? {
        lock.withLock { values[key] }
    }

    /// Stores or removes the value under `key`.
    public func set(_ value: String?, forKey key: String) {
        lock.withLock { values[key] = value }
    }
}

/// Settings in a `UserDefaults` domain (documented as safe to use from any thread).
public final class UserDefaultsSettingsStore: SettingsStore, @unchecked Sendable {
    private let defaults: UserDefaults

    /// A store over `defaults`.
    public init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    /// The string under `key`.
    public func string(forKey key: String) -> String? {
        defaults.string(forKey: key)
    }

    /// Stores or removes the string under `key`.
    public func set(_ value: String?, forKey key: String) {
        if let value { defaults.set(value, forKey: key) } else { defaults.removeObject(forKey: key) }
    }
}
