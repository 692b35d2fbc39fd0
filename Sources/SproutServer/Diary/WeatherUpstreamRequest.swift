import AsyncHTTPClient
import Foundation
import NIOCore

/// One GET to a weather provider, bounded in time and size; every failure becomes a `WeatherUpstreamFailure` that
/// says why without the URL (OpenWeather's holds the key).
enum WeatherUpstreamRequest {
    /// More than any real answer (~500 bytes); a larger one is not weather.
    static let maximumAnswerBytes = 64 * 1024

    /// `base` + `path` with `query`, fetched within `timeout`, answer body included.
    static func get(
        _ base: String, path: String, query: [URLQueryItem], timeout: Duration, httpClient: HTTPClient
    ) async throws -> Data {
        var components = URLComponents(string: base.hasSuffix("/") ? String(base.dropLast()) : base)
        components?.path += path
        components?.queryItems = query
        guard let url = components?.string else { throw WeatherUpstreamFailure(reason: "bad base URL") }
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        do {
            let response = try await httpClient.execute(HTTPClientRequest(url: url), deadline: deadline)
            guard response.status == .ok else {
                throw WeatherUpstreamFailure(reason: "HTTP \(response.status.code)")
            }
            return Data(buffer: try await response.body.collect(upTo: maximumAnswerBytes))
        } catch let failure as WeatherUpstreamFailure {
            throw failure
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw WeatherUpstreamFailure(reason: "no answer within \(timeout)")
        } catch {
            throw WeatherUpstreamFailure(reason: "unreachable")
        }
    }
}
