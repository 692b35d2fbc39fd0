import HTTPTypes
import Hummingbird

/// `GET /health`: 200 when the server can reach its database, 503 when it cannot, for load balancers and probes.
struct HealthController<Context: RequestContext> {
    let database: SproutDatabase

    struct Status: Encodable {
        let status: String
        let database: String
    }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.get { _, _ in
            let reachable = await database.ping()
            return try Response.json(
                Status(status: reachable ? "ok" : "unavailable", database: reachable ? "ok" : "unreachable"),
                status: reachable ? .ok : .serviceUnavailable
            )
        }
        return routes
    }
}
