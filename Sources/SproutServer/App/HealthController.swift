import HTTPTypes
import Hummingbird

/// Probes for process supervisors and load balancers. `GET /health`: the process lives and answers (it touches
/// nothing else, so a slow database never gets a live process restarted). `GET /ready`: this process should be
/// sent requests — its database answers and is migrated, and it is not draining for a shutdown; 503 otherwise.
struct HealthController<Context: RequestContext> {
    let database: SproutDatabase
    let readiness: Readiness

    struct Liveness: Encodable {
        let status: String
    }

    struct ReadinessAnswer: Encodable {
        let status: String
        let database: String
    }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get("health") { _, _ in
            try Response.json(Liveness(status: "ok"))
        }
        routes.get("ready") { _, _ in
            let state = readiness.current
            guard state == .ready else {
                return try Response.json(ReadinessAnswer(status: state.rawValue, database: "not checked"), status: .serviceUnavailable)
            }
            let reachable = await database.ping()
            return try Response.json(
                ReadinessAnswer(status: reachable ? "ready" : "unavailable", database: reachable ? "ok" : "unreachable"),
                status: reachable ? .ok : .serviceUnavailable
            )
        }
        return routes
    }
}
