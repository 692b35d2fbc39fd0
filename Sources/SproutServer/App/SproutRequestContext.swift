import HTTPTypes
import Hummingbird

/// The per-request context shared by every service's routes.
public struct SproutRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }
}
