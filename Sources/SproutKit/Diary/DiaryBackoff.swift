/// How long a sync waits before trying again after a failure it may recover from: `initial`, doubling with every
/// failure in a row, never more than `maximum`. A success starts again from `initial`.
public struct DiaryBackoff: Sendable, Equatable {
    /// The wait after the first failure.
    public var initial: Duration
    /// The longest wait.
    public var maximum: Duration

    /// - Parameters:
    ///   - initial: the wait after the first failure (1 s).
    ///   - maximum: the longest wait (60 s).
    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60)) {
        self.initial = initial
        self.maximum = max(initial, maximum)
    }

    /// The wait after `failures` failures in a row (1 for the first): `initial × 2^(failures − 1)`, capped.
    public func delay(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        var delay = initial
        for _ in 1..<failures {
            delay *= 2
            if delay >= maximum { return maximum }
        }
        return min(delay, maximum)
    }
}
