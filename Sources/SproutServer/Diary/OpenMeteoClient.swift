import AsyncHTTPClient
import Foundation

/// Open-Meteo's keyless current weather, `GET {base}/v1/forecast?latitude=&longitude=&current=temperature_2m,
/// weather_code,is_day` (°C by default). The WMO weather code becomes OpenWeather's words and icon
/// (`WMOWeatherCode`), so `/api/weather` answers the same shape whichever provider is behind it.
struct OpenMeteoClient: WeatherUpstream {
    let baseURL: String
    /// The whole exchange, answer body included.
    let timeout: Duration
    let httpClient: HTTPClient

    var name: String { "Open-Meteo" }

    func currentWeather(at location: WeatherLocation) async throws -> CurrentWeather {
        let data = try await WeatherUpstreamRequest.get(baseURL, path: "/v1/forecast", query: [
            URLQueryItem(name: "latitude", value: location.latitudeText),
            URLQueryItem(name: "longitude", value: location.longitudeText),
            URLQueryItem(name: "current", value: "temperature_2m,weather_code,is_day"),
        ], timeout: timeout, httpClient: httpClient)
        return try Self.weather(from: data)
    }

    /// `current.{weather_code, is_day, temperature_2m}` of an Open-Meteo answer; a code outside WMO's table is no
    /// weather (502), never a guess.
    static func weather(from data: Data) throws -> CurrentWeather {
        guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else {
            throw WeatherUpstreamFailure(reason: "an answer without weather")
        }
        guard let code = WMOWeatherCode(rawValue: answer.current.weatherCode) else {
            throw WeatherUpstreamFailure(reason: "an unknown WMO weather code \(answer.current.weatherCode)")
        }
        let condition = code.openWeatherCondition
        let icon = condition.icon + (answer.current.isDay == 0 ? "n" : "d")
        return try CurrentWeather.checked(main: condition.main, description: condition.description, icon: icon, tempC: answer.current.temperature)
    }

    private struct Answer: Decodable {
        struct Current: Decodable {
            let temperature: Double
            let weatherCode: Int
            let isDay: Int

            private enum CodingKeys: String, CodingKey {
                case temperature = "temperature_2m", weatherCode = "weather_code", isDay = "is_day"
            }
        }
        let current: Current
    }
}
