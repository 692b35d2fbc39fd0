import Foundation
import Logging
import SproutWire

/// The weather for a place: from the shared cache when it is under 10 minutes old, else from the configured
/// provider (OpenWeather with the server's key, or Open-Meteo without one). Never made up: with weather off, or when
/// the provider fails, the caller hears so (503, 502).
struct WeatherService: Sendable {
    /// nil when weather is off (`WEATHER_PROVIDER=off`).
    let upstream: (any WeatherUpstream)?
    let cache: SQLWeatherCache
    let quota: WeatherQuota
    let logger: Logger

    static let freshFor = 10 * 60 * 1000

    init(upstream: (any WeatherUpstream)?, cache: SQLWeatherCache, quota: WeatherQuota = WeatherQuota(), logger: Logger) {
        self.upstream = upstream
        self.cache = cache
        self.quota = quota
        self.logger = logger
    }

    /// The provider the configuration chooses (`WeatherSettings.provider`).
    init(_ configuration: SproutConfiguration, executor: any SQLExecutor, logger: Logger) {
        let settings = configuration.diary.weather
        let upstream: (any WeatherUpstream)?
        switch settings.provider {
        case .openWeather(let key):
            upstream = OpenWeatherClient(baseURL: settings.openWeatherBaseURL, apiKey: key, timeout: settings.timeout, httpClient: .shared)
        case .openMeteo:
            upstream = OpenMeteoClient(baseURL: settings.openMeteoBaseURL, timeout: settings.timeout, httpClient: .shared)
        case .off:
            upstream = nil
        }
        self.init(upstream: upstream, cache: SQLWeatherCache(executor: executor), quota: WeatherQuota(limits: settings.quota), logger: logger)
    }

    static let turnedOff = DiaryError(
        status: .serviceUnavailable,
        message: "Weather is turned off on this server (WEATHER_PROVIDER=off); set OPENWEATHER_API_KEY or WEATHER_PROVIDER=open-meteo."
    )

    /// The weather at `location` for `account`: from the cache, or from the one upstream call in flight for that
    /// place, or from a new one if the account's and the process's budgets allow it (`WeatherQuota`).
    func weather(at location: WeatherLocation, for account: Int, now: Date) async throws -> CurrentWeather {
        guard let upstream else { throw Self.turnedOff }
        let nowMilliseconds = Int(DiaryTimestamp.milliseconds(of: now))
        if let cached = try await cache.weather(at: location.key, fetchedAfter: nowMilliseconds - Self.freshFor) {
            return cached
        }
        let flight: Task<CurrentWeather, any Error>
        do {
            flight = try quota.flight(for: location.key, account: account) { [cache, logger] in
                let weather: CurrentWeather
                do {
                    weather = try await upstream.currentWeather(at: location)
                } catch {
                    logger.warning("weather upstream failed", metadata: [
                        "provider": "\(upstream.name)", "location": "\(location.key)", "reason": "\(error.reason)",
                    ])
                    throw DiaryError(status: .badGateway, message: "The weather service (\(upstream.name)) did not answer properly (\(error.reason)); try again later.")
                }
                try await cache.keep(weather, at: location.key, fetchedAt: nowMilliseconds, forgettingBefore: nowMilliseconds - Self.freshFor)
                return weather
            }
        } catch let refusal as WeatherQuota.Refusal {
            throw refusal.diaryError(provider: upstream.name)
        }
        return try await flight.value
    }
}

extension WeatherQuota.Refusal {
    func diaryError(provider: String) -> DiaryError {
        switch self {
        case .accountBudgetSpent:
            DiaryError(status: .tooManyRequests, message: "Too many weather lookups for new places from this account; try again in a few minutes.")
        case .processBudgetSpent:
            DiaryError(status: .tooManyRequests, message: "This server has asked for the weather too often; try again in a few minutes.")
        case .backingOff(let remaining):
            DiaryError(status: .badGateway, message: "The weather service (\(provider)) failed a moment ago; try again in \(max(1, remaining.components.seconds)) s.")
        }
    }
}

/// The weather a provider measured for a place: every field known (an answer lacking one is no weather).
struct CurrentWeather: Sendable, Equatable {
    /// OpenWeather's group word (`Clouds`); Open-Meteo's code mapped to it (`WMOWeatherCode`).
    var main: String
    /// OpenWeather's words (`few clouds`), or the WMO code's.
    var description: String
    /// OpenWeather's icon code, day or night.
    var icon: String
    /// Degrees Celsius, one decimal.
    var tempC: Double

    var json: DiaryWeatherJSON { DiaryWeatherJSON(main: main, description: description, icon: icon, tempC: tempC) }

    /// Checked as every provider's answer is: a known icon, words of sane length, a temperature on Earth.
    static func checked(main: String, description: String, icon: String, tempC: Double) throws -> CurrentWeather {
        let rounded = (tempC * 10).rounded() / 10
        guard WeatherIcon.isValid(icon), (1...40).contains(main.count), description.count <= 200, (-150...150).contains(rounded) else {
            throw WeatherUpstreamFailure(reason: "an answer out of range")
        }
        return CurrentWeather(main: main, description: description, icon: icon, tempC: rounded)
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

/// Why the upstream gave no weather, for the log and the 502's message (never the URL: it may hold a key).
struct WeatherUpstreamFailure: Error {
    let reason: String
}

extension Error {
    fileprivate var reason: String { (self as? WeatherUpstreamFailure)?.reason ?? "no answer" }
}

/// Where current weather comes from (OpenWeather or Open-Meteo; a fake upstream in tests is the same client at
/// another URL).
protocol WeatherUpstream: Sendable {
    /// The provider's name, for logs and the 502's message.
    var name: String { get }
    func currentWeather(at location: WeatherLocation) async throws -> CurrentWeather
}

/// The shared cache: one row per rounded location, so every server process on one database uses it.
struct SQLWeatherCache: Sendable {
    let executor: any SQLExecutor

    func weather(at key: String, fetchedAfter: Int) async throws -> CurrentWeather? {
        try await executor.readFirst(
            "SELECT main, description, icon, temp_c FROM weather_cache WHERE location = \(bind: key) AND fetched_ms > \(bind: fetchedAfter)",
            as: CachedWeather.self
        )?.weather
    }

    /// Keeps a fresh answer and forgets the stale ones (a small table: one row per place asked in 10 minutes).
    func keep(_ weather: CurrentWeather, at key: String, fetchedAt: Int, forgettingBefore: Int) async throws {
        try await executor.writeAll([
            "DELETE FROM weather_cache WHERE fetched_ms <= \(bind: forgettingBefore)",
            """
            INSERT INTO weather_cache (location, main, description, icon, temp_c, fetched_ms)
            VALUES (\(bind: key), \(bind: weather.main), \(bind: weather.description), \(bind: weather.icon), \(bind: weather.tempC), \(bind: fetchedAt))
            ON CONFLICT (location) DO UPDATE SET main = excluded.main, description = excluded.description,
              icon = excluded.icon, temp_c = excluded.temp_c, fetched_ms = excluded.fetched_ms
            """,
        ])
    }

    private struct CachedWeather: SQLRowDecodable {
        let weather: CurrentWeather
        init(row: some SQLRow) throws {
            weather = CurrentWeather(
                main: try row.string("main"), description: try row.string("description"), icon: try row.string("icon"),
                tempC: try row.double("temp_c")
            )
        }
    }
}
