import Hummingbird
import HummingbirdTesting
import Testing

/// A test application whose start-up work fails (migrations timing out under load, in CI) fails its test: through
/// HummingbirdTesting's live framework alone it waited forever for a port and held the whole suite.
struct StartCheckedApplicationTests {
    struct MigrationsFailed: Error {}

    @Test(.timeLimit(.minutes(1)))
    func aStartThatFailsFailsTheTestInsteadOfHangingIt() async throws {
        var failing = Application(router: Router())
        failing.beforeServerStarts { throw MigrationsFailed() }
        let app = StartCheckedApplication(failing)
        for setup in [TestingSetup.live, .router] {
            await #expect(throws: MigrationsFailed.self) {
                try await app.test(setup) { _ in try app.throwIfStartFailed() }
            }
        }
    }
}
