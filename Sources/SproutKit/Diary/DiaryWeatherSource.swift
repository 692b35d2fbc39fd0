import Foundation

/// Where the device is, in degrees.
public struct DiaryLocation: Sendable, Equatable {
    /// −90…90.
    public var latitude: Double
    /// −180…180.
    public var longitude: Double

    /// A location from its parts.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Asks the device where it is (Core Location in an app); nil when it does not know or may not say.
public typealias DiaryLocationProvider = @Sendable () async -> DiaryLocation?

/// How a new entry gets its weather: the device's location, then `GET /api/weather` there.
public struct DiaryWeatherSource: Sendable {
    /// What one attempt came to.
    public enum Outcome: Sendable, Equatable {
        /// The weather now, as the server answered it.
        case weather(DiaryWeather)
        /// The location provider had no location.
        case noLocation
        /// The weather call failed (503: no OpenWeather key on the server; 502: OpenWeather failed; offline…).
        case failed(SproutError)
    }

    private let location: DiaryLocationProvider
    private let fetch: @Sendable (DiaryLocation) async throws(SproutError) -> DiaryWeather

    /// The weather from the Sprout server at the place `location` gives.
    public init(client: DiaryClient, location: @escaping DiaryLocationProvider) {
        self.location = location
        fetch = { (place) throws(SproutError) in try await client.weather(latitude: place.latitude, longitude: place.longitude) }
    }

    /// The weather from `fetch` at the place `location` gives (for previews and tests).
    public init(location: @escaping DiaryLocationProvider, fetch: @escaping @Sendable (DiaryLocation) async throws(SproutError) -> DiaryWeather) {
        self.location = location
        self.fetch = fetch
    }

    /// Asks once: the location, then the weather there. Never makes weather up.
    public func current() async -> Outcome {
        guard let place = await location() else { return .noLocation }
        do {
            return .weather(try await fetch(place))
        } catch {
            return .failed(error)
        }
    }
}
