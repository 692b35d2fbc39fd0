/// A setting that must never be printed: its description, debug description and mirror show `<redacted>` (or
/// `nil`), so a settings struct that holds it can be logged, interpolated or dumped whole. Swift Service Lifecycle
/// logs every service's description at debug level, and a service that keeps the configuration (the backup
/// schedule) used to put the secrets key into the log that way.
@propertyWrapper
public struct Redacted<Value: Sendable>: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    public var description: String {
        if let optional = wrappedValue as? any OptionalProtocol, optional.isNone { return "nil" }
        return "<redacted>"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Redacted: Equatable where Value: Equatable {}

/// Lets `Redacted` tell an unset optional (worth showing) from a set one.
protocol OptionalProtocol {
    var isNone: Bool { get }
}

extension Optional: OptionalProtocol {
    var isNone: Bool { self == nil }
}

/// A database URL printed with its password as `***` (the rest tells an operator which database it is).
@propertyWrapper
public struct RedactedPassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var wrappedValue: String?

    public init(wrappedValue: String?) {
        self.wrappedValue = wrappedValue
    }

    public var description: String { wrappedValue.map(SecretRedaction.redactingPassword(in:)) ?? "nil" }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
