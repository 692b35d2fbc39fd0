import Foundation
import Hummingbird
import SproutWire

/// `GET /api/weather?lat=&lon=` for accounts: the current weather from the configured provider (`WeatherService`).
struct WeatherController<Context: CallerRequestContext> {
    typealias SignedIn = SignedInContext<Context, DiaryError>

    let service: WeatherService
    /// The time of day (`buildApplication` hands in the application's).
    var clock = WallClock.system

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.add(middleware: CallerDependentHeadersMiddleware())
        routes.group(context: SignedIn.self).get("weather", use: weather)
        return routes
    }

    @Sendable func weather(_ request: Request, context: SignedIn) async throws -> Response {
        let fields = request.queryFields
        guard let latitude = fields["lat"]?.asText.flatMap(Double.init), let longitude = fields["lon"]?.asText.flatMap(Double.init),
              let location = WeatherLocation(latitude: latitude, longitude: longitude)
        else { throw DiaryError.badRequest("lat must be a number from -90 to 90 and lon one from -180 to 180.") }
        return try Response.json(try await service.weather(at: location, for: context.account.id, now: clock.now).json)
    }
}
