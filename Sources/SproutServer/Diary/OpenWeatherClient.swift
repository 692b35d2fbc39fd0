import AsyncHTTPClient
import Foundation

/// OpenWeather's current weather, `GET {base}/data/2.5/weather?lat=&lon=&appid=` — as the diary app asked it (no
/// `units`: Kelvin, converted here). Only `weather[0]` and `main.temp` are kept.
struct OpenWeatherClient: WeatherUpstream {
    let baseURL: String
    let apiKey: String
    /// The whole exchange, answer body included.
    let timeout: Duration
    let httpClient: HTTPClient

    var name: String { "OpenWeather" }

    func currentWeather(at location: WeatherLocation) async throws -> CurrentWeather {
        let data = try await WeatherUpstreamRequest.get(baseURL, path: "/data/2.5/weather", query: [
            URLQueryItem(name: "lat", value: location.latitudeText),
            URLQueryItem(name: "lon", value: location.longitudeText),
            URLQueryItem(name: "appid", value: apiKey),
        ], timeout: timeout, httpClient: httpClient)
        return try Self.weather(from: data)
    }

    /// `weather[0].{main, description, icon}` and `main.temp` (Kelvin) of an OpenWeather answer.
    static func weather(from data: Data) throws -> CurrentWeather {
        guard let answer = try? JSONDecoder().decode(Answer.self, from: data), let first = answer.weather.first else {
            throw WeatherUpstreamFailure(reason: "an answer without weather")
        }
        return try CurrentWeather.checked(main: first.main, description: first.description, icon: first.icon, tempC: answer.main.temp - 273.15)
    }

    private struct Answer: Decodable {
        struct Condition: Decodable {
            let main: String
            let description: String
            let icon: String
        }
        struct Measurements: Decodable {
            let temp: Double
        }
        let weather: [Condition]
        let main: Measurements
    }
}
