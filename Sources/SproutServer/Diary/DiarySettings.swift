/// How much history the diary keeps, and where its weather comes from.
///
/// | variable | default |
/// |---|---|
/// | `DIARY_KEPT_VERSIONS` | `50` (1…1000) |
/// | `WEATHER_PROVIDER`, `OPENWEATHER_API_KEY`, `OPENWEATHER_BASE_URL`, `OPEN_METEO_BASE_URL` | see `WeatherSettings` |
public struct DiarySettings: Sendable {
    /// The most earlier versions kept per diary entry, of every kind.
    public var keptVersions = SQLDiaryRepository.defaultKeptVersions
    /// Where `/api/weather` gets current weather (Open-Meteo unless an OpenWeather key is set).
    public var weather = WeatherSettings()

    static let variables = ["DIARY_KEPT_VERSIONS"] + WeatherSettings.variables

    public init() {}

    static func read(from reader: EnvironmentReader) throws -> DiarySettings {
        var settings = DiarySettings()
        settings.keptVersions = try reader.int(
            "DIARY_KEPT_VERSIONS", in: SQLDiaryRepository.keptVersionsRange, default: settings.keptVersions
        )
        settings.weather = try WeatherSettings.read(from: reader)
        return settings
    }
}
