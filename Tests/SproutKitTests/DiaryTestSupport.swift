import Foundation
import SproutKit

/// Helpers shared by the Diary tests.
enum DiaryTest {
    /// A temporary diary database file; remove `directory` afterwards.
    static func temporaryFile() -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diary-\(UUID().uuidString)")
        return (directory.appendingPathComponent("Diary.sqlite").path, directory)
    }

    /// A date `seconds` after 2026-11-23T00:00:00Z.
    static func date(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: 1_795_392_000 + seconds)
    }

    /// A sleep that returns at once and remembers the waits asked for.
    final class Sleeper: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [Duration] = []

        var waits: [Duration] { lock.withLock { recorded } }

        var sleep: @Sendable (Duration) async throws -> Void {
            { [self] duration in lock.withLock { recorded.append(duration) } }
        }
    }

    /// A location provider that counts how often it is asked.
    final class Locator: @unchecked Sendable {
        private let lock = NSLock()
        private var asked = 0
        let location: DiaryLocation?

        init(_ location: DiaryLocation? = DiaryLocation(latitude: 37.7858, longitude: -122.4064)) {
            self.location = location
        }

        var calls: Int { lock.withLock { asked } }

        var provider: DiaryLocationProvider {
            { [self] in
                lock.withLock { asked += 1 }
                return location
            }
        }
    }
}
