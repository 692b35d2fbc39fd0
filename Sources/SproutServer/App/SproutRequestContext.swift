import HTTPTypes
import Hummingbird
import NIOCore

/// The per-request context shared by every service's routes.
public struct SproutRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address (the login limiter counts failures per address).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
