import Hummingbird
import HummingbirdCore
import ServiceLifecycle
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// The application under test, with its start-up work (migrations, secrets) made to fail the test instead of
/// hanging it. HummingbirdTesting's live framework waits for the server's port before it runs the test, and a
/// failure before the server starts never gives one: the test then waited forever, and with it the whole suite
/// (CI's PostgreSQL run was stopped after 20 minutes, 38 tests waiting, when migrations under load timed out).
/// Here the failure is kept instead of thrown, the server starts on the half-ready application, and the test
/// throws the kept error before it sends anything (`throwIfStartFailed`).
struct StartCheckedApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder

    let base: Base
    private let failure = NIOLockedValueBox<(any Error)?>(nil)

    init(_ base: Base) {
        self.base = base
    }

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
    }

    /// The base's processes in order, stopping at the first failure, which is kept.
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] {
        let processes = base.processesRunBeforeServerStart
        let failure = self.failure
        return [{
            do {
                for process in processes { try await process() }
            } catch {
                failure.withLockedValue { $0 = error }
            }
        }]
    }

    func throwIfStartFailed() throws {
        if let error = failure.withLockedValue({ $0 }) { throw error }
    }
}
