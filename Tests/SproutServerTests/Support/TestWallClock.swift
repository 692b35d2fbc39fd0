import Foundation
import NIOConcurrencyHelpers
@testable import SproutServer

/// A time of day that moves only when the test moves it: handed to `withTestApp(clock:)`, so a test of an expiry
/// or a window skips ahead instead of sleeping or rewriting stored times.
final class TestWallClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = NIOLockedValueBox(start)
    }

    var now: Date { current.withLockedValue { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }

    var clock: WallClock { WallClock { [current] in current.withLockedValue { $0 } } }
}
