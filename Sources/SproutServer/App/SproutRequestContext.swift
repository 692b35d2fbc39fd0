import HTTPTypes
import Hummingbird
import NIOCore

/// The per-request context shared by every service's routes.
public struct SproutRequestContext: RequestContext, RemoteAddressRequestContext, CallerRequestContext, RecordedRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address: the client's, or a reverse proxy's (`client` says whose request it is).
    public let remoteAddress: SocketAddress?
    /// The client: the peer, or the one a trusted proxy names (`ClientOriginMiddleware`).
    public var client: ClientOrigin
    /// Who is calling (`CallerMiddleware`).
    var caller = Caller.anonymous
    /// For the access line: who turned out to be calling.
    let record = RequestRecord()
    /// The client's connection: a long answer (an event stream) watches it to stop as soon as the client leaves.
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
        client = ClientOrigin(address: remoteAddress?.ipAddress ?? "unknown", isHTTPS: false)
    }
}
