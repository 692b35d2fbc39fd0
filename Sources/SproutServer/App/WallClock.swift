import Foundation

/// The time of day the application reads for what it stores and decides — timestamps, token expiry, rate-limit
/// windows, "new" posts — handed to every service by `buildApplication`. The system's by default; a test hands in
/// one it moves by hand, instead of sleeping or rewriting stored times. (Durations measured while waiting, such
/// as timeouts, use `ContinuousClock` and are not this.)
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    public static let system = WallClock { Date() }

    public var now: Date { read() }
}
