import Foundation

/// The waits between an `EventStream`'s reconnection attempts: the server's `retry` (or `initial`), doubled
/// after each failure in a row up to `maximum`, and stretched by a random part of up to `jitter` so that clients
/// dropped together (a server restart) do not all come back at once. A connection that delivered an event
/// starts the count again.
public struct EventStreamBackoff: Sendable, Equatable {
    /// The first wait, until the server says otherwise with `retry:`.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration
    /// The random stretch, as a fraction of the wait (0.25: up to a quarter longer).
    public var jitter: Double

    /// Waits from `initial` doubling to `maximum`, each up to `jitter` longer.
    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(30), jitter: Double = 0.25) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = max(jitter, 0)
    }

    /// The wait after `failures` failures in a row (1 for the first), from `base` (the server's `retry`) when
    /// it gave one. Never shorter than `base`, never longer than `maximum`.
    public func delay(afterFailures failures: Int, base: Duration? = nil, random: Double = Double.random(in: 0...1)) -> Duration {
        let start = base ?? initial
        let doublings = min(max(failures - 1, 0), 30)
        let grown = min(start * (1 << doublings), maximum)
        let stretched = grown * (1 + jitter * min(max(random, 0), 1))
        return max(min(stretched, maximum), min(start, maximum))
    }
}
