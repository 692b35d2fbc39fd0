import Foundation

/// Where `/api/weather` gets current weather, read from `WEATHER_PROVIDER`, `OPENWEATHER_API_KEY`,
/// `OPENWEATHER_BASE_URL` and `OPEN_METEO_BASE_URL`.
///
/// Without a choice, a server with an OpenWeather key asks OpenWeather and one without asks Open-Meteo, which needs
/// no key — so a fresh install has real weather. `off` answers 503 to every weather call.
public struct WeatherSettings: Sendable, Equatable {
    /// The provider in force.
    public enum Provider: Sendable, Equatable {
        case openWeather(apiKey: String)
        case openMeteo
        case off
    }

    public var provider: Provider = .openMeteo
    /// `OPENWEATHER_BASE_URL`: where OpenWeather is (tests point it at a fake upstream).
    public var openWeatherBaseURL = "https://api.openweathermap.org"
    /// `OPEN_METEO_BASE_URL`: where Open-Meteo is (tests point it at a fake upstream).
    public var openMeteoBaseURL = "https://api.open-meteo.com"
    /// How long one weather call may take, answer included (5 s; tests shorten it).
    public var timeout: Duration = .seconds(5)
    /// Upstream calls per account and in all, and the back-off after a failure (`WeatherQuota`).
    var quota = WeatherQuota.Limits()

    public init() {}

    /// The settings `environment` describes; a value that cannot be used is a `ConfigurationError` naming it.
    public static func fromEnvironment(_ value: (String) -> String?) throws -> WeatherSettings {
        var settings = WeatherSettings()
        if let raw = value("OPENWEATHER_BASE_URL") { settings.openWeatherBaseURL = try baseURL(raw, "OPENWEATHER_BASE_URL") }
        if let raw = value("OPEN_METEO_BASE_URL") { settings.openMeteoBaseURL = try baseURL(raw, "OPEN_METEO_BASE_URL") }
        let key = value("OPENWEATHER_API_KEY")
        switch value("WEATHER_PROVIDER")?.lowercased() {
        case nil:
            settings.provider = key.map { .openWeather(apiKey: $0) } ?? .openMeteo
        case "openweather":
            guard let key else {
                throw ConfigurationError("WEATHER_PROVIDER=openweather needs OPENWEATHER_API_KEY (or choose open-meteo, which needs no key)")
            }
            settings.provider = .openWeather(apiKey: key)
        case "open-meteo", "openmeteo":
            settings.provider = .openMeteo
        case "off":
            settings.provider = .off
        case let other?:
            throw ConfigurationError("WEATHER_PROVIDER must be openweather, open-meteo or off, got '\(other)'")
        }
        return settings
    }

    private static func baseURL(_ raw: String, _ name: String) throws -> String {
        guard let url = URLComponents(string: raw), url.scheme == "https" || url.scheme == "http", url.host?.isEmpty == false else {
            throw ConfigurationError("\(name) must be an http(s) URL, got '\(raw)'")
        }
        return raw
    }
}
