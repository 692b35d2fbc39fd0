/// Where `/api/weather` gets current weather, read from `WEATHER_PROVIDER` (`openweather`, `open-meteo` or `off`),
/// `OPENWEATHER_API_KEY` (one word), `OPENWEATHER_BASE_URL` and `OPEN_METEO_BASE_URL` (http(s) URLs; the public
/// services by default).
///
/// Without a choice, a server with an OpenWeather key asks OpenWeather and one without asks Open-Meteo, which needs
/// no key — so a fresh install has real weather. `off` answers 503 to every weather call.
public struct WeatherSettings: Sendable, Equatable {
    /// The provider in force.
    public enum Provider: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        case openWeather(apiKey: String)
        case openMeteo
        case off

        /// Never the API key (`Redacted`).
        public var description: String {
            switch self {
            case .openWeather: "openWeather(apiKey: <redacted>)"
            case .openMeteo: "openMeteo"
            case .off: "off"
            }
        }

        public var debugDescription: String { description }

        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
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

    static let variables = ["WEATHER_PROVIDER", "OPENWEATHER_API_KEY", "OPENWEATHER_BASE_URL", "OPEN_METEO_BASE_URL"]

    /// The names `WEATHER_PROVIDER` takes (`openmeteo` too, without the dash).
    private enum ProviderName: String, CaseIterable {
        case openWeather = "openweather"
        case openMeteo = "open-meteo"
        case off
    }

    /// The settings `reader` describes; a value that cannot be used is a `ConfigurationError` naming it.
    static func read(from reader: EnvironmentReader) throws -> WeatherSettings {
        var settings = WeatherSettings()
        if let url = try reader.httpURL("OPENWEATHER_BASE_URL") { settings.openWeatherBaseURL = url }
        if let url = try reader.httpURL("OPEN_METEO_BASE_URL") { settings.openMeteoBaseURL = url }
        // Sent as a query parameter: a space inside is a pasting mistake, refused here rather than as a 401 later.
        let key = try reader.token("OPENWEATHER_API_KEY")
        switch try reader.choice("WEATHER_PROVIDER", of: ProviderName.self, aliases: ["openmeteo": .openMeteo]) {
        case nil:
            settings.provider = key.map { .openWeather(apiKey: $0) } ?? .openMeteo
        case .openWeather?:
            guard let key else {
                throw ConfigurationError("WEATHER_PROVIDER=openweather needs OPENWEATHER_API_KEY (or choose open-meteo, which needs no key)")
            }
            settings.provider = .openWeather(apiKey: key)
        case .openMeteo?:
            settings.provider = .openMeteo
        case .off?:
            settings.provider = .off
        }
        return settings
    }
}
