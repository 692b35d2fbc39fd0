import NIOConcurrencyHelpers

/// Whether this process should be sent requests: `/ready` answers from it. Starting until the database has
/// answered and its migrations are done, ready after that, draining from the moment a graceful shutdown begins
/// (a load balancer then stops sending new requests while those in flight finish).
public final class Readiness: Sendable {
    public enum State: String, Sendable {
        case starting, ready, draining
    }

    private let state = NIOLockedValueBox(State.starting)
    private let drainingActions = NIOLockedValueBox<[@Sendable () -> Void]>([])

    public init() {}

    public var current: State { state.withLockedValue { $0 } }

    /// The database answers and is migrated. A process already draining stays draining.
    func markReady() {
        state.withLockedValue { if $0 == .starting { $0 = .ready } }
    }

    func startDraining() {
        state.withLockedValue { $0 = .draining }
        for action in drainingActions.withLockedValue({ actions in defer { actions = [] }; return actions }) { action() }
    }

    /// Runs `action` when draining begins: what holds a request open for long (an event stream) lets go, so the
    /// server can drain within its grace.
    func whenDraining(_ action: @escaping @Sendable () -> Void) {
        drainingActions.withLockedValue { $0.append(action) }
    }
}
