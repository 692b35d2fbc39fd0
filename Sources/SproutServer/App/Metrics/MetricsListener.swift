import Hummingbird
import Logging
import ServiceLifecycle

/// `/metrics` on a listener of its own (`METRICS_PORT`, on `METRICS_HOSTNAME`, loopback by default), never on the
/// public port: what the metrics tell (routes, volumes, failures) is for the operator. It answers nothing else.
struct MetricsListener: Service {
    let metrics: SproutMetrics
    let hostname: String
    let port: Int
    let logger: Logger

    func run() async throws {
        let router = Router()
        let metrics = metrics
        router.get("metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition()))
            )
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(hostname, port: port), serverName: "Sprout"),
            logger: logger
        )
        try await app.run()
    }
}
