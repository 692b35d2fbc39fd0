import Foundation
import Logging
import SproutWire

/// The weather for a place: from the shared cache when it is under 10 minutes old, else from OpenWeather.
/// Never made up: without a key, or when the upstream fails, the caller hears so (503, 502).
struct WeatherService: Sendable {
    /// nil when no `OPENWEATHER_API_KEY` is configured.
    let upstream: (any WeatherUpstream)?
    let cache: SQLWeatherCache
    let logger: Logger

    static let freshFor = 10 * 60 * 1000

    init(upstream: (any WeatherUpstream)?, cache: SQLWeatherCache, logger: Logger) {
        self.upstream = upstream
        self.cache = cache
        self.logger = logger
    }

    /// OpenWeather with the configured key, or none.
    init(_ configuration: SproutConfiguration, executor: any SQLExecutor, logger: Logger) {
        let upstream = configuration.openWeatherAPIKey.flatMap { key in
            key.isEmpty ? nil : OpenWeatherClient(
                baseURL: configuration.openWeatherBaseURL, apiKey: key, timeout: configuration.weatherTimeout, httpClient: .shared
            )
        }
        self.init(upstream: upstream, cache: SQLWeatherCache(executor: executor), logger: logger)
    }

    static let notConfigured = DiaryError(
        status: .serviceUnavailable,
        message: "Weather is not available: this server has no OpenWeather API key (OPENWEATHER_API_KEY)."
    )

    func weather(at location: WeatherLocation, now: Date) async throws -> DiaryWeather {
        guard let upstream else { throw Self.notConfigured }
        let nowMilliseconds = Int(DiaryTimestamp.milliseconds(of: now))
        if let cached = try await cache.weather(at: location.key, fetchedAfter: nowMilliseconds - Self.freshFor) {
            return cached
        }
        let weather: DiaryWeather
        do {
            weather = try await upstream.currentWeather(at: location)
        } catch {
            logger.warning("weather upstream failed", metadata: ["location": "\(location.key)", "reason": "\(error.reason)"])
            throw DiaryError(status: .badGateway, message: "The weather service did not answer properly (\(error.reason)); try again later.")
        }
        try await cache.keep(weather, at: location.key, fetchedAt: nowMilliseconds, forgettingBefore: nowMilliseconds - Self.freshFor)
        return weather
    }
}

/// A place rounded to 2 decimals (about 1 km), which is also the cache key.
struct WeatherLocation: Sendable, Equatable {
    /// Hundredths of a degree.
    let latitude: Int
    let longitude: Int

    init?(latitude: Double, longitude: Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = Int((latitude * 100).rounded())
        self.longitude = Int((longitude * 100).rounded())
    }

    var key: String { "\(Self.decimal(latitude)),\(Self.decimal(longitude))" }
    var latitudeText: String { Self.decimal(latitude) }
    var longitudeText: String { Self.decimal(longitude) }

    /// Hundredths as a decimal: -12345 → "-123.45".
    private static func decimal(_ hundredths: Int) -> String {
        let magnitude = abs(hundredths)
        let fraction = magnitude % 100
        return (hundredths < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}

/// Why the upstream gave no weather, for the log and the 502's message (never the URL: it holds the key).
struct WeatherUpstreamFailure: Error {
    let reason: String
}

extension Error {
    fileprivate var reason: String { (self as? WeatherUpstreamFailure)?.reason ?? "no answer" }
}

/// Where current weather comes from (OpenWeather; a fake upstream in tests is the same client at another URL).
protocol WeatherUpstream: Sendable {
    func currentWeather(at location: WeatherLocation) async throws -> DiaryWeather
}

/// The shared cache: one row per rounded location, so every server process on one database uses it.
struct SQLWeatherCache: Sendable {
    let executor: any SQLExecutor

    func weather(at key: String, fetchedAfter: Int) async throws -> DiaryWeather? {
        try await executor.readFirst(SQLStatement(
            "SELECT main, description, icon, temp_c FROM weather_cache WHERE location = $1 AND fetched_ms > $2",
            .text(key), .int(fetchedAfter)
        ), as: CachedWeather.self)?.weather
    }

    /// Keeps a fresh answer and forgets the stale ones (a small table: one row per place asked in 10 minutes).
    func keep(_ weather: DiaryWeather, at key: String, fetchedAt: Int, forgettingBefore: Int) async throws {
        try await executor.writeAll([
            SQLStatement("DELETE FROM weather_cache WHERE fetched_ms <= $1", .int(forgettingBefore)),
            SQLStatement("""
                INSERT INTO weather_cache (location, main, description, icon, temp_c, fetched_ms) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (location) DO UPDATE SET main = excluded.main, description = excluded.description,
                  icon = excluded.icon, temp_c = excluded.temp_c, fetched_ms = excluded.fetched_ms
                """, .text(key), .text(weather.main), .text(weather.description), .text(weather.icon), .double(weather.tempC), .int(fetchedAt)),
        ])
    }

    private struct CachedWeather: SQLRowDecodable {
        let weather: DiaryWeather
        init(row: some SQLRow) throws {
            weather = DiaryWeather(main: try row.string(0), description: try row.string(1), icon: try row.string(2), tempC: try row.double(3))
        }
    }
}
