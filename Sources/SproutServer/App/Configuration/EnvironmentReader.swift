import Foundation

/// The environment as Sprout's settings read it: every settings struct asks through these typed readers, so a
/// value means the same everywhere (surrounding spaces dropped, empty as unset) and every refusal reads alike:
/// "X must be …, got 'v'".
///
/// A class, not a struct, only so it can note which variables were asked for: a test compares that with the
/// variables the settings declare, so a setting cannot be read without being known (and thus refused as unknown).
final class EnvironmentReader {
    private let environment: [String: String]
    /// Every variable asked for so far.
    private(set) var consulted: Set<String> = []

    init(_ environment: [String: String]) {
        self.environment = environment
    }

    /// The value exactly as set (no trimming), or nil when unset or empty.
    private func raw(_ key: String) -> String? {
        consulted.insert(key)
        guard let value = environment[key], !value.isEmpty else { return nil }
        return value
    }

    /// The value without surrounding spaces, or nil when unset or only spaces.
    func string(_ key: String) -> String? {
        guard let value = raw(key)?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// A whole number within `range`. `unit` ("bytes") and `zeroMeans` ("no limit") only shape the message.
    func int(_ key: String, in range: ClosedRange<Int>, default fallback: Int, unit: String? = nil, zeroMeans: String? = nil) throws -> Int {
        guard let value = string(key) else { return fallback }
        guard let number = Int(value), range.contains(number) else {
            throw ConfigurationError("\(key) must be \(Self.describe(range, unit: unit, zeroMeans: zeroMeans)), got '\(value)'")
        }
        return number
    }

    /// A number of seconds above 0 and at most `atMost`, fractions allowed (`2.5`).
    func seconds(_ key: String, default fallback: Duration, atMost: Int = 86_400) throws -> Duration {
        guard let value = string(key) else { return fallback }
        guard let number = Double(value), number > 0, number <= Double(atMost) else {
            throw ConfigurationError("\(key) must be a number of seconds above 0 and at most \(atMost), got '\(value)'")
        }
        return .milliseconds(Int64(number * 1000))
    }

    /// One of `Choice`'s raw values (or an alias), in any letter case; nil when unset.
    func choice<Choice: CaseIterable & RawRepresentable>(
        _ key: String, of _: Choice.Type, aliases: [String: Choice] = [:]
    ) throws -> Choice? where Choice.RawValue == String {
        guard let value = string(key) else { return nil }
        let lowered = value.lowercased()
        if let choice = Choice(rawValue: lowered) ?? aliases[lowered] { return choice }
        throw ConfigurationError("\(key) must be \(Self.oneOf(Choice.allCases.map(\.rawValue))), got '\(value)'")
    }

    /// `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`), in any letter case.
    func bool(_ key: String, default fallback: Bool) throws -> Bool {
        guard let value = string(key) else { return fallback }
        switch value.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw ConfigurationError("\(key) must be true or false, got '\(value)'")
        }
    }

    /// A secret of at least `minimumBytes`, kept exactly as set (spaces are part of a key); nil when unset.
    /// The message never quotes it. `hint` goes in brackets; `whenUnset` says what leaving it unset does.
    func secret(_ key: String, minimumBytes: Int, hint: String, whenUnset: String) throws -> String? {
        guard let value = raw(key) else { return nil }
        guard value.utf8.count >= minimumBytes else {
            throw ConfigurationError("\(key) must be at least \(minimumBytes) bytes long (\(hint)); leave it unset to \(whenUnset)")
        }
        return value
    }

    /// A token sent in an HTTP header or query (an API token or key): one word of visible ASCII characters, since
    /// a space inside could never arrive whole. The message names the position, not the value, which is secret.
    func token(_ key: String) throws -> String? {
        guard let value = string(key) else { return nil }
        if let bad = value.unicodeScalars.firstIndex(where: { !(0x21...0x7E).contains($0.value) }) {
            let position = value.unicodeScalars.distance(from: value.unicodeScalars.startIndex, to: bad) + 1
            throw ConfigurationError("\(key) must be one word of visible ASCII characters (no spaces inside); character \(position) is not")
        }
        return value
    }

    /// An `http` or `https` URL with a host; nil when unset.
    func httpURL(_ key: String) throws -> String? {
        guard let value = string(key) else { return nil }
        guard let url = URLComponents(string: value), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false
        else {
            throw ConfigurationError("\(key) must be an http(s) URL, got '\(value)'")
        }
        return value
    }

    /// "a number from 1 to 1000", "a number of bytes from 1024 to 20971520", "a number from 0 (no limit) to
    /// 100000", "a positive number of bytes" (a range without a useful top).
    static func describe(_ range: ClosedRange<Int>, unit: String?, zeroMeans: String?) -> String {
        let number = unit.map { "a number of \($0)" } ?? "a number"
        if range.upperBound == .max {
            return range.lowerBound == 1 ? "a positive \(number.dropFirst(2))" : "\(number) of at least \(range.lowerBound)"
        }
        let lower = range.lowerBound == 0 ? zeroMeans.map { "0 (\($0))" } ?? "0" : "\(range.lowerBound)"
        return "\(number) from \(lower) to \(range.upperBound)"
    }

    /// "a or b", "a, b or c".
    static func oneOf(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}

/// A configuration value that cannot be used; the message says which and why.
public struct ConfigurationError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
