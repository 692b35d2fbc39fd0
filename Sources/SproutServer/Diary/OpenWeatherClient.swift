import AsyncHTTPClient
import Foundation
import NIOCore

/// OpenWeather's current weather, `GET {base}/data/2.5/weather?lat=&lon=&appid=` — as the diary app asked it (no
/// `units`: Kelvin, converted here). Only `weather[0]` and `main.temp` are kept.
struct OpenWeatherClient: WeatherUpstream {
    let baseURL: String
    let apiKey: String
    /// The whole exchange, answer body included.
    let timeout: Duration
    let httpClient: HTTPClient

    /// More than any real answer (~500 bytes); a larger one is not weather.
    static let maximumAnswerBytes = 64 * 1024

    func currentWeather(at location: WeatherLocation) async throws -> DiaryWeather {
        var components = URLComponents(string: baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL)
        components?.path += "/data/2.5/weather"
        components?.queryItems = [
            URLQueryItem(name: "lat", value: location.latitudeText),
            URLQueryItem(name: "lon", value: location.longitudeText),
            URLQueryItem(name: "appid", value: apiKey),
        ]
        guard let url = components?.string else { throw WeatherUpstreamFailure(reason: "bad base URL") }
        let request = HTTPClientRequest(url: url)
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(request, deadline: deadline)
            guard response.status == .ok else {
                throw WeatherUpstreamFailure(reason: "HTTP \(response.status.code)")
            }
            body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
        } catch let failure as WeatherUpstreamFailure {
            throw failure
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw WeatherUpstreamFailure(reason: "no answer within \(timeout)")
        } catch {
            throw WeatherUpstreamFailure(reason: "unreachable")
        }
        return try Self.weather(from: Data(buffer: body))
    }

    /// `weather[0].{main, description, icon}` and `main.temp` (Kelvin) of an OpenWeather answer.
    static func weather(from data: Data) throws -> DiaryWeather {
        guard let answer = try? JSONDecoder().decode(Answer.self, from: data), let first = answer.weather.first else {
            throw WeatherUpstreamFailure(reason: "an answer without weather")
        }
        let celsius = ((answer.main.temp - 273.15) * 10).rounded() / 10
        guard WeatherIcon.isValid(first.icon), (1...40).contains(first.main.count), first.description.count <= 200,
              (-150...150).contains(celsius)
        else { throw WeatherUpstreamFailure(reason: "an answer out of range") }
        return DiaryWeather(main: first.main, description: first.description, icon: first.icon, tempC: celsius)
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
