import Hummingbird
import HummingbirdTesting

extension ApplicationProtocol {
    /// `test(_:_:)`, with a failure of `body` handed out of it as a value instead of thrown through it. Thrown out of
    /// a live test, it makes HummingbirdTesting cancel the server's task group right after asking it to shut down
    /// gracefully; a connection accepted but not yet served then traps in NIO ("Deinited NIOAsyncWriter without
    /// calling finish()", swift-nio#2637 and #3481), taking the whole suite down (twice in CI's PostgreSQL runs).
    func testKeepingFailure<Value: Sendable>(
        _ testing: TestingSetup, _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Result<Value, any Error> {
        try await test(testing) { client in
            do {
                return .success(try await body(client))
            } catch {
                return .failure(error)
            }
        }
    }
}
